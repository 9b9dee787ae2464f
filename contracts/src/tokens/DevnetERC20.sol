// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title DevnetERC20
/// @notice A plain ERC-20 the devnet places (with `anvil_setCode`) at each chain's real token
/// addresses (USDC, USDT, ...). Placed code runs no constructor, so name, symbol, decimals and
/// the minter are set once by `initialize`.
/// @dev DEVNET ONLY: `mint(to, amount)` lets the minter chosen in `initialize` create tokens
/// out of thin air, which is how the devnet funds accounts. The real tokens have no such path
/// reachable by us; nothing else differs from a standard ERC-20 (no fees, no blocklists, no
/// pausing). `transfer` returns true (USDT's real contract returns nothing).
contract DevnetERC20 {
    string public name;
    string public symbol;
    uint8 public decimals;
    address public minter;
    bool public initialized;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 amount);
    event Approval(address indexed owner, address indexed spender, uint256 amount);

    error AlreadyInitialized();
    error NotMinter();
    error InsufficientBalance();
    error InsufficientAllowance();

    /// @notice Sets the token's metadata and its devnet minter; callable once.
    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, address minter_) external {
        if (initialized) revert AlreadyInitialized();
        initialized = true;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        minter = minter_;
    }

    /// @notice DEVNET ONLY: creates `amount` tokens for `to`. Only the minter may call it.
    function mint(address to, uint256 amount) external {
        if (msg.sender != minter) revert NotMinter();
        totalSupply += amount;
        unchecked {
            balanceOf[to] += amount;
        }
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance();
            unchecked {
                allowance[from][msg.sender] = allowed - amount;
            }
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance();
        unchecked {
            balanceOf[from] = balance - amount;
            balanceOf[to] += amount;
        }
        emit Transfer(from, to, amount);
    }
}
