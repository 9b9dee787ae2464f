// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title SentinelList
/// @notice A set of addresses kept as a singly linked list that starts and ends at SENTINEL
/// (address(1)): `next[SENTINEL]` is the first entry, the last entry points back to SENTINEL.
/// Insertion is O(1); removal takes the previous entry, or walks the list when it is not given.
library SentinelList {
    address internal constant SENTINEL = address(1);

    error InvalidEntry(address entry);
    error EntryAlreadyPresent(address entry);
    error EntryNotPresent(address entry);
    error InvalidPrevious(address prev, address entry);

    /// @dev An uninitialised list (next[SENTINEL] == 0) reads as empty.
    function contains(mapping(address => address) storage next, address entry) internal view returns (bool) {
        return entry != SENTINEL && entry != address(0) && next[entry] != address(0);
    }

    function push(mapping(address => address) storage next, address entry) internal {
        if (entry == address(0) || entry == SENTINEL) revert InvalidEntry(entry);
        if (next[entry] != address(0)) revert EntryAlreadyPresent(entry);
        address first = next[SENTINEL];
        next[entry] = first == address(0) ? SENTINEL : first;
        next[SENTINEL] = entry;
    }

    /// @notice Removes `entry`, whose predecessor must be `prev` (SENTINEL for the first entry).
    function remove(mapping(address => address) storage next, address prev, address entry) internal {
        if (!contains(next, entry)) revert EntryNotPresent(entry);
        if (next[prev] != entry) revert InvalidPrevious(prev, entry);
        next[prev] = next[entry];
        delete next[entry];
    }

    /// @notice Removes `entry`, finding its predecessor by walking the list.
    function removeAnywhere(mapping(address => address) storage next, address entry) internal {
        if (!contains(next, entry)) revert EntryNotPresent(entry);
        address prev = SENTINEL;
        while (next[prev] != entry) prev = next[prev];
        next[prev] = next[entry];
        delete next[entry];
    }

    /// @notice Up to `size` entries after `cursor` (SENTINEL to start); `nextCursor` is SENTINEL
    /// once the list is exhausted, otherwise the last entry returned (pass it back to continue).
    function page(mapping(address => address) storage next, address cursor, uint256 size)
        internal
        view
        returns (address[] memory entries, address nextCursor)
    {
        entries = new address[](size);
        uint256 count;
        address current = next[cursor];
        while (count < size && current != address(0) && current != SENTINEL) {
            entries[count++] = current;
            current = next[current];
        }
        nextCursor = (current == address(0) || current == SENTINEL || count == 0) ? SENTINEL : entries[count - 1];
        assembly ("memory-safe") {
            mstore(entries, count)
        }
    }

    /// @notice Every entry, in list order.
    function all(mapping(address => address) storage next) internal view returns (address[] memory entries) {
        uint256 count;
        for (address current = next[SENTINEL]; current != address(0) && current != SENTINEL; current = next[current]) {
            count++;
        }
        entries = new address[](count);
        address cur = next[SENTINEL];
        for (uint256 i; i < count; i++) {
            entries[i] = cur;
            cur = next[cur];
        }
    }

    /// @notice Empties the list.
    function clear(mapping(address => address) storage next) internal {
        address current = next[SENTINEL];
        while (current != address(0) && current != SENTINEL) {
            address following = next[current];
            delete next[current];
            current = following;
        }
        delete next[SENTINEL];
    }
}
