// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

/// TEST ONLY. A call target whose state the executor and filler tests observe.
contract ExecutorTestCounter {
    mapping(address => uint256) public counts;
    uint256 public received;

    error Refused();

    event Bumped(address indexed caller, uint256 by);

    function bump(uint256 by) external payable {
        counts[msg.sender] += by;
        received += msg.value;
        emit Bumped(msg.sender, by);
    }

    function refuse() external pure {
        revert Refused();
    }
}
