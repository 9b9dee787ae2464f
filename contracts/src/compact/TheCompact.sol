// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ECDSA} from "../lib/ECDSA.sol";
import {EIP712} from "../lib/EIP712.sol";
import {ReentrancyGuard} from "../lib/ReentrancyGuard.sol";
import {SafeTransferLib} from "../lib/SafeTransferLib.sol";
import {IERC1271} from "../lib/SignatureChecker.sol";
import {
    AllocatedBatchTransfer,
    AllocatedTransfer,
    BatchClaim,
    BatchClaimComponent,
    BatchMultichainClaim,
    Claim as ClaimPayload,
    Component,
    ComponentsById,
    ExogenousBatchMultichainClaim,
    ExogenousMultichainClaim,
    MultichainClaim
} from "./CompactTypes.sol";
import {IAllocator} from "./IAllocator.sol";
import {IEmissary} from "./IEmissary.sol";

/// @dev v1's claim event (its name is also v1's `Claim` struct, imported here as ClaimPayload).
interface ITheCompactEvents {
    event Claim(
        address indexed sponsor, address indexed allocator, address indexed arbiter, bytes32 claimHash, uint256 nonce
    );
}

/// @title TheCompact
/// @notice A Compact-compatible resource lock (ERC-6909), written for the devnet from The Compact
/// v1's public interface and placed with `anvil_setCode` at 0x00000000000000171ede64904551eeDF3C6C9788.
///
/// Lock ids: id = lockTag (12 bytes) ‖ token (20 bytes, zero = native), with
/// lockTag = scope << 255 | resetPeriod << 252 | allocatorId << 160 (bits of the id) and
/// allocatorId (uint96) = compactFlag (4 bits) << 88 | low 88 bits of the allocator address.
/// compactFlag counts the allocator address's leading zero nibbles z: 0 if z < 4, 15 if z >= 18,
/// else z - 3.
///
/// Claim hashes (EIP-712 struct hashes; the digest signed by the sponsor is
/// keccak256(0x1901 ‖ domainSeparator ‖ claimHash), domain {name 'The Compact', version '1',
/// chainId, verifyingContract: this}). Without a witness (empty witnessTypestring) the plain v1
/// types are used; with one, `,Mandate mandate)` closes the compact's own struct (the Element of a
/// multichain compact) and `Mandate(` ‖ witnessTypestring ‖ `)` follows the Lock type; the
/// witness hash is the struct's last member.
///
/// Multichain element ordering (what a settlement must reproduce): the sponsor signs
/// MultichainCompact{sponsor, nonce, expires, elements[]}; elements[] is hashed as
/// keccak256(elementHash[0] ‖ elementHash[1] ‖ ...), each elementHash =
/// keccak256(abi.encode(ELEMENT_TYPEHASH, arbiter, chainId, keccak256(lockHashes...), witness)).
/// - multichainClaim / batchMultichainClaim are made on the chain of elements[0] (the notarized
///   chain): the element list is [this chain's element, ...additionalChains], so additionalChains =
///   the hashes of elements[1..] in signed order. The signature domain uses block.chainid.
/// - exogenousClaim / exogenousBatchClaim are made on any other chain: additionalChains = the
///   hashes of every other element in signed order (elements[0] first), and this chain's element
///   is inserted AFTER additionalChains[chainIndex], i.e. it sits at elements[chainIndex + 1]. The
///   signature domain uses notarizedChainId (the chain id of elements[0]) instead of block.chainid.
///
/// Sponsor authorization of a claim: a registration, else the sponsor's signature over the digest
/// (ECDSA, then ERC-1271; under this domain, then under the legacy domain), else the sponsor's
/// emissary for the claim's lock tag (`IEmissary.verifyClaim` returning its selector). Every lock of
/// a batch claim must have that same emissary. A sponsor assigns an emissary per lock tag with
/// `assignEmissary`: the first assignment is immediate; replacing or removing one needs
/// `scheduleEmissaryAssignment` and the lock tag's reset period to pass (so an allocator can rely on
/// an emissary for as long as it could rely on the lock).
///
/// Deviations from v1 (devnet): no constructor or immutables (the domain separator is computed at
/// call time); no Permit2 deposits, no qualification or batch registrations;
/// `__registerAllocator` of an already registered allocator returns its id instead of reverting;
/// a multichain claim requires Multichain-scoped locks; every id of a batch shares one allocator.
contract TheCompact is ReentrancyGuard {
    // ---------------------------------------------------------------- EIP-712 type strings
    bytes32 internal constant COMPACT_TYPEHASH = keccak256(
        "Compact(address arbiter,address sponsor,uint256 nonce,uint256 expires,bytes12 lockTag,address token,uint256 amount)"
    );
    bytes32 internal constant BATCH_COMPACT_TYPEHASH = keccak256(
        "BatchCompact(address arbiter,address sponsor,uint256 nonce,uint256 expires,Lock[] commitments)Lock(bytes12 lockTag,address token,uint256 amount)"
    );
    bytes32 internal constant MULTICHAIN_COMPACT_TYPEHASH = keccak256(
        "MultichainCompact(address sponsor,uint256 nonce,uint256 expires,Element[] elements)Element(address arbiter,uint256 chainId,Lock[] commitments)Lock(bytes12 lockTag,address token,uint256 amount)"
    );
    bytes32 internal constant ELEMENT_TYPEHASH = keccak256(
        "Element(address arbiter,uint256 chainId,Lock[] commitments)Lock(bytes12 lockTag,address token,uint256 amount)"
    );
    bytes32 internal constant LOCK_TYPEHASH = keccak256("Lock(bytes12 lockTag,address token,uint256 amount)");

    string internal constant COMPACT_WITNESS_PREFIX =
        "Compact(address arbiter,address sponsor,uint256 nonce,uint256 expires,bytes12 lockTag,address token,uint256 amount,Mandate mandate)Mandate(";
    string internal constant BATCH_WITNESS_PREFIX =
        "BatchCompact(address arbiter,address sponsor,uint256 nonce,uint256 expires,Lock[] commitments,Mandate mandate)Lock(bytes12 lockTag,address token,uint256 amount)Mandate(";
    string internal constant MULTICHAIN_WITNESS_PREFIX =
        "MultichainCompact(address sponsor,uint256 nonce,uint256 expires,Element[] elements)Element(address arbiter,uint256 chainId,Lock[] commitments,Mandate mandate)Lock(bytes12 lockTag,address token,uint256 amount)Mandate(";
    string internal constant ELEMENT_WITNESS_PREFIX =
        "Element(address arbiter,uint256 chainId,Lock[] commitments,Mandate mandate)Lock(bytes12 lockTag,address token,uint256 amount)Mandate(";

    bytes4 internal constant ATTEST_SELECTOR = 0x1a808f91;
    bytes4 internal constant AUTHORIZE_CLAIM_SELECTOR = 0x7bb023f7;

    /// @dev getEmissaryStatus's statuses (v1's EmissaryStatus enum).
    uint8 internal constant EMISSARY_DISABLED = 0;
    uint8 internal constant EMISSARY_ENABLED = 1;
    uint8 internal constant EMISSARY_SCHEDULED = 2;

    // ---------------------------------------------------------------- state
    mapping(address owner => mapping(uint256 id => uint256)) public balanceOf;
    mapping(address owner => mapping(address spender => mapping(uint256 id => uint256))) public allowance;
    mapping(address owner => mapping(address spender => bool)) public isOperator;

    mapping(uint96 allocatorId => address) internal _allocators;
    mapping(address allocator => uint96) internal _allocatorIds;
    mapping(address allocator => mapping(uint256 nonce => bool)) internal _consumedNonces;
    mapping(address sponsor => mapping(bytes32 claimHash => mapping(bytes32 typehash => bool))) internal _registered;
    mapping(address account => mapping(uint256 id => uint256 withdrawableAt)) internal _forcedWithdrawals;
    mapping(address sponsor => mapping(bytes12 lockTag => address)) internal _emissaries;
    mapping(address sponsor => mapping(bytes12 lockTag => uint256 assignableAt)) internal _emissaryAssignableAt;

    // ---------------------------------------------------------------- events and errors
    event Transfer(address by, address indexed from, address indexed to, uint256 indexed id, uint256 amount);
    event Approval(address indexed owner, address indexed spender, uint256 indexed id, uint256 amount);
    event OperatorSet(address indexed owner, address indexed spender, bool approved);
    event AllocatorRegistered(uint96 allocatorId, address allocator);
    event CompactRegistered(address indexed sponsor, bytes32 claimHash, bytes32 typehash);
    event NonceConsumedDirectly(address indexed allocator, uint256 nonce);
    event ForcedWithdrawalStatusUpdated(
        address indexed account, uint256 indexed id, bool activating, uint256 withdrawableAt
    );

    event EmissaryAssigned(address indexed sponsor, bytes12 indexed lockTag, address indexed emissary);
    event EmissaryAssignmentScheduled(address indexed sponsor, bytes12 indexed lockTag, uint256 assignableAt);

    error InvalidToken(address token);
    error EmissaryAssignmentUnavailable(uint256 assignableAt);
    error InvalidLockTag(bytes12 lockTag);
    error UnregisteredAllocator(uint96 allocatorId);
    error InvalidAllocatorRegistration(address allocator);
    error AllocatorIdCollision(uint96 allocatorId, address existing);
    error InvalidDepositBalanceChange();
    error InconsistentNativeValue();
    error Expired(uint256 expires);
    error InvalidNonce(address allocator, uint256 nonce);
    error InvalidSignature();
    error InvalidAllocation(address allocator);
    error AllocatedAmountExceeded(uint256 allocatedAmount, uint256 claimedAmount);
    error InsufficientBalance(address owner, uint256 id);
    error InsufficientAllowance(address owner, address spender, uint256 id);
    error InconsistentAllocators();
    error InvalidScope(uint256 id);
    error InvalidChainIndex();
    error NoIds();
    error PrematureWithdrawal(uint256 id);
    error ForcedWithdrawalAlreadyDisabled(address account, uint256 id);
    error UnallocatedTransfer(address operator, address from, address to, uint256 id, uint256 amount);

    /// @dev The parts of a claim every claim function shares, so the core logic has one home.
    struct ClaimContext {
        address sponsor;
        uint256 nonce;
        uint256 expires;
        bytes32 claimHash;
        bytes32 typehash;
        uint256 domainChainId;
    }

    // ================================================================ views

    function name() external pure returns (string memory) {
        return "The Compact";
    }

    /// @notice The EIP-712 domain separator for the current chain and this address.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return _domainSeparator(block.chainid);
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        // ERC-165 and ERC-6909.
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x0f632fb3;
    }

    /// @notice The parts of a lock id. resetPeriod: 0..7 = 1 s, 15 s, 1 min, 10 min, 1 h 5 min,
    /// 1 day, 7 days 1 h, 30 days. scope: 0 Multichain, 1 ChainSpecific.
    function getLockDetails(uint256 id)
        external
        view
        returns (address token, address allocator, uint8 resetPeriod, uint8 scope, bytes12 lockTag)
    {
        token = address(uint160(id));
        allocator = _allocatorOf(id);
        resetPeriod = uint8((id >> 252) & 7);
        scope = uint8(id >> 255);
        lockTag = bytes12(bytes32(id));
    }

    function hasConsumedAllocatorNonce(uint256 nonce, address allocator) external view returns (bool) {
        return _consumedNonces[allocator][nonce];
    }

    function isRegistered(address sponsor, bytes32 claimHash, bytes32 typehash) external view returns (bool) {
        return _registered[sponsor][claimHash][typehash];
    }

    /// @notice The allocator id an allocator address gets (registered or not).
    function toAllocatorId(address allocator) public pure returns (uint96) {
        return uint96((uint256(_compactFlag(allocator)) << 88) | (uint256(uint160(allocator)) & ((1 << 88) - 1)));
    }

    /// @return status 0 disabled, 1 pending, 2 enabled; withdrawableAt the time it becomes usable.
    function getForcedWithdrawalStatus(address account, uint256 id)
        external
        view
        returns (uint8 status, uint256 withdrawableAt)
    {
        withdrawableAt = _forcedWithdrawals[account][id];
        if (withdrawableAt == 0) return (0, 0);
        status = block.timestamp < withdrawableAt ? 1 : 2;
    }

    // ================================================================ allocators and nonces

    /// @notice Registers an allocator. Allowed when the caller is the allocator, the allocator has
    /// code, or `proof` is the 85-byte CREATE2 preimage (0xff ‖ deployer ‖ salt ‖ initCodeHash) of
    /// its address. Idempotent: a registered allocator gets its id back.
    function __registerAllocator(address allocator, bytes calldata proof) external returns (uint96 allocatorId) {
        allocatorId = toAllocatorId(allocator);
        if (_allocatorIds[allocator] != 0) return allocatorId;
        bool allowed = msg.sender == allocator || allocator.code.length > 0
            || (proof.length == 85 && proof[0] == 0xff && address(uint160(uint256(keccak256(proof)))) == allocator);
        if (!allowed || allocator == address(0)) revert InvalidAllocatorRegistration(allocator);
        address existing = _allocators[allocatorId];
        if (existing != address(0)) revert AllocatorIdCollision(allocatorId, existing);
        _allocators[allocatorId] = allocator;
        _allocatorIds[allocator] = allocatorId;
        emit AllocatorRegistered(allocatorId, allocator);
    }

    /// @notice Lets an allocator (the caller) burn its own nonces, so they can never be claimed.
    function consume(uint256[] calldata nonces) external returns (bool) {
        if (_allocatorIds[msg.sender] == 0) revert UnregisteredAllocator(toAllocatorId(msg.sender));
        for (uint256 i; i < nonces.length; ++i) {
            _consumeNonce(msg.sender, nonces[i]);
            emit NonceConsumedDirectly(msg.sender, nonces[i]);
        }
        return true;
    }

    /// @notice Registers a compact for the caller as sponsor: a claim with this claim hash and
    /// typehash needs no sponsor signature.
    function register(bytes32 claimHash, bytes32 typehash) external returns (bool) {
        _registered[msg.sender][claimHash][typehash] = true;
        emit CompactRegistered(msg.sender, claimHash, typehash);
        return true;
    }

    // ================================================================ emissaries

    /// @notice The sponsor's emissary for `lockTag`: status 0 Disabled (none), 1 Enabled (one is
    /// assigned, no change scheduled), 2 Scheduled (a change may be made from `assignableAt`).
    function getEmissaryStatus(address sponsor, bytes12 lockTag)
        external
        view
        returns (uint8 status, uint256 assignableAt, address currentEmissary)
    {
        currentEmissary = _emissaries[sponsor][lockTag];
        assignableAt = _emissaryAssignableAt[sponsor][lockTag];
        if (assignableAt != 0) status = EMISSARY_SCHEDULED;
        else if (currentEmissary != address(0)) status = EMISSARY_ENABLED;
        else status = EMISSARY_DISABLED;
    }

    /// @notice Starts the wait before the caller may replace or remove its emissary for `lockTag`:
    /// the lock tag's reset period from now.
    function scheduleEmissaryAssignment(bytes12 lockTag) external returns (uint256 assignableAt) {
        _allocatorOf(uint256(bytes32(lockTag))); // a lock tag of a registered allocator
        assignableAt = block.timestamp + _resetPeriodSeconds(uint8((uint96(lockTag) >> 92) & 7));
        _emissaryAssignableAt[msg.sender][lockTag] = assignableAt;
        emit EmissaryAssignmentScheduled(msg.sender, lockTag, assignableAt);
    }

    /// @notice Assigns (or, with the zero address, removes) the caller's emissary for `lockTag`.
    /// Immediate when none is assigned; otherwise only once a scheduled assignment is due.
    function assignEmissary(bytes12 lockTag, address emissary) external returns (bool) {
        _allocatorOf(uint256(bytes32(lockTag)));
        if (_emissaries[msg.sender][lockTag] != address(0)) {
            uint256 assignableAt = _emissaryAssignableAt[msg.sender][lockTag];
            if (assignableAt == 0 || block.timestamp < assignableAt) {
                revert EmissaryAssignmentUnavailable(assignableAt);
            }
        }
        _emissaries[msg.sender][lockTag] = emissary;
        delete _emissaryAssignableAt[msg.sender][lockTag];
        emit EmissaryAssigned(msg.sender, lockTag, emissary);
        return true;
    }

    // ================================================================ deposits

    function depositNative(bytes12 lockTag, address recipient) external payable nonReentrant returns (uint256 id) {
        id = _toId(lockTag, address(0));
        _mint(_recipientOrCaller(recipient), id, msg.value);
    }

    function depositERC20(address token, bytes12 lockTag, uint256 amount, address recipient)
        external
        nonReentrant
        returns (uint256 id)
    {
        if (token == address(0)) revert InvalidToken(token);
        id = _toId(lockTag, token);
        _mint(_recipientOrCaller(recipient), id, _pull(token, amount));
    }

    /// @notice Deposits several locks at once; a native id's amount must equal msg.value.
    function batchDeposit(uint256[2][] calldata idsAndAmounts, address recipient)
        external
        payable
        nonReentrant
        returns (bool)
    {
        address to = _recipientOrCaller(recipient);
        uint256 nativeSeen;
        for (uint256 i; i < idsAndAmounts.length; ++i) {
            uint256 id = idsAndAmounts[i][0];
            uint256 amount = idsAndAmounts[i][1];
            address token = address(uint160(id));
            _toId(bytes12(bytes32(id)), token); // validates the lock tag's allocator
            if (token == address(0)) {
                nativeSeen += amount;
                _mint(to, id, amount);
            } else {
                _mint(to, id, _pull(token, amount));
            }
        }
        if (nativeSeen != msg.value) revert InconsistentNativeValue();
        return true;
    }

    // ================================================================ ERC-6909

    function transfer(address to, uint256 id, uint256 amount) external nonReentrant returns (bool) {
        _attest(msg.sender, msg.sender, to, id, amount);
        _move(msg.sender, to, id, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 id, uint256 amount) external nonReentrant returns (bool) {
        if (msg.sender != from && !isOperator[from][msg.sender]) {
            uint256 allowed = allowance[from][msg.sender][id];
            if (allowed != type(uint256).max) {
                if (allowed < amount) revert InsufficientAllowance(from, msg.sender, id);
                allowance[from][msg.sender][id] = allowed - amount;
            }
        }
        _attest(msg.sender, from, to, id, amount);
        _move(from, to, id, amount);
        return true;
    }

    function approve(address spender, uint256 id, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender][id] = amount;
        emit Approval(msg.sender, spender, id, amount);
        return true;
    }

    function setOperator(address spender, bool approved) external returns (bool) {
        isOperator[msg.sender][spender] = approved;
        emit OperatorSet(msg.sender, spender, approved);
        return true;
    }

    // ================================================================ allocated transfers

    /// @notice Moves the caller's locked balance as its allocator authorizes: the claim hash is the
    /// Compact typehash over (arbiter = sponsor = caller, nonce, expires, lockTag, token, summed amount).
    function allocatedTransfer(AllocatedTransfer calldata t) external nonReentrant returns (bool) {
        uint256 total = _sum(t.recipients);
        bytes32 claimHash = keccak256(
            abi.encode(
                COMPACT_TYPEHASH, msg.sender, msg.sender, t.nonce, t.expires, bytes12(bytes32(t.id)), address(uint160(t.id)), total
            )
        );
        uint256[2][] memory idsAndAmounts = new uint256[2][](1);
        idsAndAmounts[0] = [t.id, total];
        _authorize(_allocatorOf(t.id), claimHash, msg.sender, t.nonce, t.expires, idsAndAmounts, t.allocatorData);
        _distribute(msg.sender, t.id, t.recipients);
        return true;
    }

    /// @notice The batch form: the claim hash is the BatchCompact typehash over (caller, caller,
    /// nonce, expires, Lock[] of each id with its summed amount). All ids share one allocator.
    function allocatedBatchTransfer(AllocatedBatchTransfer calldata t) external nonReentrant returns (bool) {
        uint256 n = t.transfers.length;
        if (n == 0) revert NoIds();
        uint256[2][] memory idsAndAmounts = new uint256[2][](n);
        bytes32[] memory lockHashes = new bytes32[](n);
        address allocator = _allocatorOf(t.transfers[0].id);
        for (uint256 i; i < n; ++i) {
            ComponentsById calldata c = t.transfers[i];
            if (_allocatorOf(c.id) != allocator) revert InconsistentAllocators();
            uint256 total = _sum(c.portions);
            idsAndAmounts[i] = [c.id, total];
            lockHashes[i] = _lockHash(c.id, total);
        }
        bytes32 claimHash = keccak256(
            abi.encode(
                BATCH_COMPACT_TYPEHASH, msg.sender, msg.sender, t.nonce, t.expires, keccak256(abi.encodePacked(lockHashes))
            )
        );
        _authorize(allocator, claimHash, msg.sender, t.nonce, t.expires, idsAndAmounts, t.allocatorData);
        for (uint256 i; i < n; ++i) {
            _distribute(msg.sender, t.transfers[i].id, t.transfers[i].portions);
        }
        return true;
    }

    // ================================================================ claims (msg.sender = arbiter)

    function claim(ClaimPayload calldata c) external nonReentrant returns (bytes32 claimHash) {
        bytes32 typehash = _typehash(COMPACT_TYPEHASH, COMPACT_WITNESS_PREFIX, c.witnessTypestring);
        claimHash = keccak256(_compactEncoding(typehash, c));
        ClaimContext memory ctx = ClaimContext(c.sponsor, c.nonce, c.expires, claimHash, typehash, block.chainid);
        _processSingle(ctx, c.allocatorData, c.sponsorSignature, c.id, c.allocatedAmount, c.claimants, false);
    }

    function batchClaim(BatchClaim calldata c) external nonReentrant returns (bytes32 claimHash) {
        bytes32 typehash = _typehash(BATCH_COMPACT_TYPEHASH, BATCH_WITNESS_PREFIX, c.witnessTypestring);
        bytes memory enc =
            abi.encode(typehash, msg.sender, c.sponsor, c.nonce, c.expires, _commitmentsHash(c.claims, false));
        if (bytes(c.witnessTypestring).length != 0) enc = abi.encodePacked(enc, c.witness);
        claimHash = keccak256(enc);
        ClaimContext memory ctx = ClaimContext(c.sponsor, c.nonce, c.expires, claimHash, typehash, block.chainid);
        _processBatch(ctx, c.allocatorData, c.sponsorSignature, c.claims);
    }

    function multichainClaim(MultichainClaim calldata c) external nonReentrant returns (bytes32 claimHash) {
        bytes32 element = _elementHash(c.witnessTypestring, c.witness, _singleCommitment(c.id, c.allocatedAmount));
        (claimHash,) = _multichainHash(c.witnessTypestring, c.sponsor, c.nonce, c.expires, element, c.additionalChains, type(uint256).max);
        ClaimContext memory ctx = ClaimContext(
            c.sponsor, c.nonce, c.expires, claimHash, _multichainTypehash(c.witnessTypestring), block.chainid
        );
        _processSingle(ctx, c.allocatorData, c.sponsorSignature, c.id, c.allocatedAmount, c.claimants, true);
    }

    function exogenousClaim(ExogenousMultichainClaim calldata c) external nonReentrant returns (bytes32 claimHash) {
        bytes32 element = _elementHash(c.witnessTypestring, c.witness, _singleCommitment(c.id, c.allocatedAmount));
        (claimHash,) = _multichainHash(c.witnessTypestring, c.sponsor, c.nonce, c.expires, element, c.additionalChains, c.chainIndex);
        ClaimContext memory ctx = ClaimContext(
            c.sponsor, c.nonce, c.expires, claimHash, _multichainTypehash(c.witnessTypestring), c.notarizedChainId
        );
        _processSingle(ctx, c.allocatorData, c.sponsorSignature, c.id, c.allocatedAmount, c.claimants, true);
    }

    function batchMultichainClaim(BatchMultichainClaim calldata c) external nonReentrant returns (bytes32 claimHash) {
        bytes32 element = _elementHash(c.witnessTypestring, c.witness, _commitmentsHash(c.claims, true));
        (claimHash,) = _multichainHash(c.witnessTypestring, c.sponsor, c.nonce, c.expires, element, c.additionalChains, type(uint256).max);
        ClaimContext memory ctx = ClaimContext(
            c.sponsor, c.nonce, c.expires, claimHash, _multichainTypehash(c.witnessTypestring), block.chainid
        );
        _processBatch(ctx, c.allocatorData, c.sponsorSignature, c.claims);
    }

    function exogenousBatchClaim(ExogenousBatchMultichainClaim calldata c)
        external
        nonReentrant
        returns (bytes32 claimHash)
    {
        bytes32 element = _elementHash(c.witnessTypestring, c.witness, _commitmentsHash(c.claims, true));
        (claimHash,) = _multichainHash(c.witnessTypestring, c.sponsor, c.nonce, c.expires, element, c.additionalChains, c.chainIndex);
        ClaimContext memory ctx = ClaimContext(
            c.sponsor, c.nonce, c.expires, claimHash, _multichainTypehash(c.witnessTypestring), c.notarizedChainId
        );
        _processBatch(ctx, c.allocatorData, c.sponsorSignature, c.claims);
    }

    // ================================================================ forced withdrawal

    /// @notice Starts the caller's forced withdrawal of `id`; usable after the lock's reset period.
    function enableForcedWithdrawal(uint256 id) external returns (uint256 withdrawableAt) {
        withdrawableAt = block.timestamp + _resetPeriodSeconds(uint8((id >> 252) & 7));
        _forcedWithdrawals[msg.sender][id] = withdrawableAt;
        emit ForcedWithdrawalStatusUpdated(msg.sender, id, true, withdrawableAt);
    }

    function disableForcedWithdrawal(uint256 id) external returns (bool) {
        if (_forcedWithdrawals[msg.sender][id] == 0) revert ForcedWithdrawalAlreadyDisabled(msg.sender, id);
        delete _forcedWithdrawals[msg.sender][id];
        emit ForcedWithdrawalStatusUpdated(msg.sender, id, false, 0);
        return true;
    }

    /// @notice Withdraws the caller's underlying tokens without the allocator, once the reset
    /// period since `enableForcedWithdrawal` has passed.
    function forcedWithdrawal(uint256 id, address recipient, uint256 amount) external nonReentrant returns (bool) {
        uint256 withdrawableAt = _forcedWithdrawals[msg.sender][id];
        if (withdrawableAt == 0 || block.timestamp < withdrawableAt) revert PrematureWithdrawal(id);
        _burn(msg.sender, id, amount);
        _release(id, _recipientOrCaller(recipient), amount);
        return true;
    }

    // ================================================================ internals: claims

    function _processSingle(
        ClaimContext memory ctx,
        bytes calldata allocatorData,
        bytes calldata sponsorSignature,
        uint256 id,
        uint256 allocatedAmount,
        Component[] calldata claimants,
        bool multichain
    ) internal {
        if (multichain && (id >> 255) != 0) revert InvalidScope(id);
        uint256 total = _sum(claimants);
        if (total > allocatedAmount) revert AllocatedAmountExceeded(allocatedAmount, total);
        uint256[2][] memory idsAndAmounts = new uint256[2][](1);
        idsAndAmounts[0] = [id, allocatedAmount];
        _verifyAndAuthorize(ctx, _allocatorOf(id), idsAndAmounts, allocatorData, sponsorSignature);
        _distribute(ctx.sponsor, id, claimants);
    }

    function _processBatch(
        ClaimContext memory ctx,
        bytes calldata allocatorData,
        bytes calldata sponsorSignature,
        BatchClaimComponent[] calldata claims
    ) internal {
        uint256 n = claims.length;
        if (n == 0) revert NoIds();
        address allocator = _allocatorOf(claims[0].id);
        uint256[2][] memory idsAndAmounts = new uint256[2][](n);
        for (uint256 i; i < n; ++i) {
            BatchClaimComponent calldata c = claims[i];
            if (_allocatorOf(c.id) != allocator) revert InconsistentAllocators();
            uint256 total = _sum(c.portions);
            if (total > c.allocatedAmount) revert AllocatedAmountExceeded(c.allocatedAmount, total);
            idsAndAmounts[i] = [c.id, c.allocatedAmount];
        }
        _verifyAndAuthorize(ctx, allocator, idsAndAmounts, allocatorData, sponsorSignature);
        for (uint256 i; i < n; ++i) {
            _distribute(ctx.sponsor, claims[i].id, claims[i].portions);
        }
    }

    /// @dev Expiry, sponsor authorization (registration or signature), nonce (consumed before the
    /// allocator is called, so it can never be used twice) and the allocator's authorization.
    function _verifyAndAuthorize(
        ClaimContext memory ctx,
        address allocator,
        uint256[2][] memory idsAndAmounts,
        bytes calldata allocatorData,
        bytes calldata sponsorSignature
    ) internal {
        if (ctx.expires <= block.timestamp) revert Expired(ctx.expires);
        if (!_registered[ctx.sponsor][ctx.claimHash][ctx.typehash]) {
            bytes32 digest = EIP712.digest(_domainSeparator(ctx.domainChainId), ctx.claimHash);
            if (!_isValidSignature(ctx.sponsor, digest, sponsorSignature)) {
                // Devnet compatibility: the public SDK 1.x signs compacts for the older Compact
                // address; accept the same claim signed under that domain (see contracts/README.md).
                bytes32 legacy = EIP712.digest(_legacyDomainSeparator(ctx.domainChainId), ctx.claimHash);
                if (
                    !_isValidSignature(ctx.sponsor, legacy, sponsorSignature)
                        && !_isVerifiedByEmissary(ctx, idsAndAmounts, digest, legacy, sponsorSignature)
                ) revert InvalidSignature();
            }
        }
        _authorize(allocator, ctx.claimHash, ctx.sponsor, ctx.nonce, ctx.expires, idsAndAmounts, allocatorData);
        emit ITheCompactEvents.Claim(ctx.sponsor, allocator, msg.sender, ctx.claimHash, ctx.nonce);
    }

    function _authorize(
        address allocator,
        bytes32 claimHash,
        address sponsor,
        uint256 nonce,
        uint256 expires,
        uint256[2][] memory idsAndAmounts,
        bytes calldata allocatorData
    ) internal {
        if (expires <= block.timestamp) revert Expired(expires);
        _consumeNonce(allocator, nonce);
        bytes4 result = IAllocator(allocator).authorizeClaim(
            claimHash, msg.sender, sponsor, nonce, expires, idsAndAmounts, allocatorData
        );
        if (result != AUTHORIZE_CLAIM_SELECTOR) revert InvalidAllocation(allocator);
    }

    /// @dev The sponsor's emissary of the claim's locks vouches for the signature over `digest` (or,
    /// as for direct signatures, the legacy-domain digest). Every lock must have the same emissary;
    /// it is asked about the first lock's tag. A reverting or silent emissary means no.
    function _isVerifiedByEmissary(
        ClaimContext memory ctx,
        uint256[2][] memory idsAndAmounts,
        bytes32 digest,
        bytes32 legacy,
        bytes calldata signature
    ) internal view returns (bool) {
        bytes12 lockTag = bytes12(bytes32(idsAndAmounts[0][0]));
        address emissary = _emissaries[ctx.sponsor][lockTag];
        if (emissary == address(0)) return false;
        for (uint256 i = 1; i < idsAndAmounts.length; ++i) {
            if (_emissaries[ctx.sponsor][bytes12(bytes32(idsAndAmounts[i][0]))] != emissary) return false;
        }
        return _askEmissary(emissary, ctx.sponsor, digest, ctx.claimHash, signature, lockTag)
            || _askEmissary(emissary, ctx.sponsor, legacy, ctx.claimHash, signature, lockTag);
    }

    function _askEmissary(
        address emissary,
        address sponsor,
        bytes32 digest,
        bytes32 claimHash,
        bytes calldata signature,
        bytes12 lockTag
    ) internal view returns (bool) {
        if (emissary.code.length == 0) return false;
        (bool ok, bytes memory out) = emissary.staticcall(
            abi.encodeCall(IEmissary.verifyClaim, (sponsor, digest, claimHash, signature, lockTag))
        );
        return ok && out.length >= 32 && bytes4(abi.decode(out, (bytes32))) == IEmissary.verifyClaim.selector;
    }

    /// @dev ECDSA first (covers EOAs and EIP-7702 accounts), then ERC-1271 when the sponsor has code.
    function _isValidSignature(address signer, bytes32 digest, bytes calldata signature) internal view returns (bool) {
        if (signature.length != 0 && ECDSA.recover(digest, signature) == signer) return true;
        if (signer.code.length == 0) return false;
        (bool ok, bytes memory out) =
            signer.staticcall(abi.encodeCall(IERC1271.isValidSignature, (digest, signature)));
        return ok && out.length >= 32 && bytes4(abi.decode(out, (bytes32))) == IERC1271.isValidSignature.selector;
    }

    function _distribute(address from, uint256 id, Component[] calldata portions) internal {
        bytes12 lockTag = bytes12(bytes32(id));
        address token = address(uint160(id));
        for (uint256 i; i < portions.length; ++i) {
            uint256 claimant = portions[i].claimant;
            uint256 amount = portions[i].amount;
            address recipient = address(uint160(claimant));
            bytes12 tag = bytes12(bytes32(claimant));
            if (tag == lockTag) {
                _move(from, recipient, id, amount);
            } else if (tag == bytes12(0)) {
                _burn(from, id, amount);
                _release(id, recipient, amount);
            } else {
                uint256 newId = _toId(tag, token);
                _burn(from, id, amount);
                _mint(recipient, newId, amount);
            }
        }
    }

    // ================================================================ internals: hashing

    /// @dev The older Compact address the public SDK 1.x puts in its signing domain.
    address internal constant LEGACY_VERIFYING_CONTRACT = 0x73d2Dc0c21fca4EC1601895d50Df7f5624f07D3F;

    function _legacyDomainSeparator(uint256 chainId) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                EIP712.DOMAIN_TYPEHASH, keccak256("The Compact"), keccak256("1"), chainId, LEGACY_VERIFYING_CONTRACT
            )
        );
    }

    function _domainSeparator(uint256 chainId) internal view returns (bytes32) {
        return keccak256(
            abi.encode(EIP712.DOMAIN_TYPEHASH, keccak256("The Compact"), keccak256("1"), chainId, address(this))
        );
    }

    function _typehash(bytes32 plain, string memory prefix, string calldata witnessTypestring)
        internal
        pure
        returns (bytes32)
    {
        if (bytes(witnessTypestring).length == 0) return plain;
        return keccak256(abi.encodePacked(prefix, witnessTypestring, ")"));
    }

    function _multichainTypehash(string calldata witnessTypestring) internal pure returns (bytes32) {
        return _typehash(MULTICHAIN_COMPACT_TYPEHASH, MULTICHAIN_WITNESS_PREFIX, witnessTypestring);
    }

    function _compactEncoding(bytes32 typehash, ClaimPayload calldata c) internal view returns (bytes memory enc) {
        enc = abi.encode(
            typehash,
            msg.sender,
            c.sponsor,
            c.nonce,
            c.expires,
            bytes12(bytes32(c.id)),
            address(uint160(c.id)),
            c.allocatedAmount
        );
        if (bytes(c.witnessTypestring).length != 0) enc = abi.encodePacked(enc, c.witness);
    }

    function _lockHash(uint256 id, uint256 amount) internal pure returns (bytes32) {
        return keccak256(abi.encode(LOCK_TYPEHASH, bytes12(bytes32(id)), address(uint160(id)), amount));
    }

    /// @dev Lock[] of one lock: keccak256 of that one lock hash.
    function _singleCommitment(uint256 id, uint256 amount) internal pure returns (bytes32) {
        if ((id >> 255) != 0) revert InvalidScope(id);
        return keccak256(abi.encodePacked(_lockHash(id, amount)));
    }

    function _commitmentsHash(BatchClaimComponent[] calldata claims, bool multichain) internal pure returns (bytes32) {
        bytes32[] memory hashes = new bytes32[](claims.length);
        for (uint256 i; i < claims.length; ++i) {
            if (multichain && (claims[i].id >> 255) != 0) revert InvalidScope(claims[i].id);
            hashes[i] = _lockHash(claims[i].id, claims[i].allocatedAmount);
        }
        return keccak256(abi.encodePacked(hashes));
    }

    /// @dev The element of this chain: arbiter = the caller, chainId = block.chainid.
    function _elementHash(string calldata witnessTypestring, bytes32 witness, bytes32 commitments)
        internal
        view
        returns (bytes32)
    {
        bool hasWitness = bytes(witnessTypestring).length != 0;
        bytes32 typehash = _typehash(ELEMENT_TYPEHASH, ELEMENT_WITNESS_PREFIX, witnessTypestring);
        bytes memory enc = abi.encode(typehash, msg.sender, block.chainid, commitments);
        if (hasWitness) enc = abi.encodePacked(enc, witness);
        return keccak256(enc);
    }

    /// @dev chainIndex == type(uint256).max: this chain's element goes first (the notarized
    /// chain); otherwise it is inserted after additionalChains[chainIndex].
    function _multichainHash(
        string calldata witnessTypestring,
        address sponsor,
        uint256 nonce,
        uint256 expires,
        bytes32 element,
        bytes32[] calldata additionalChains,
        uint256 chainIndex
    ) internal pure returns (bytes32 claimHash, bytes32 elementsHash) {
        uint256 n = additionalChains.length;
        bytes32[] memory elements = new bytes32[](n + 1);
        uint256 position = chainIndex == type(uint256).max ? 0 : chainIndex + 1;
        if (chainIndex != type(uint256).max && chainIndex >= n) revert InvalidChainIndex();
        for (uint256 i; i <= n; ++i) {
            if (i < position) elements[i] = additionalChains[i];
            else if (i == position) elements[i] = element;
            else elements[i] = additionalChains[i - 1];
        }
        elementsHash = keccak256(abi.encodePacked(elements));
        claimHash =
            keccak256(abi.encode(_multichainTypehash(witnessTypestring), sponsor, nonce, expires, elementsHash));
    }

    // ================================================================ internals: balances and ids

    function _toId(bytes12 lockTag, address token) internal view returns (uint256 id) {
        id = uint256(bytes32(lockTag)) | uint256(uint160(token));
        uint96 allocatorId = uint96((id >> 160) & ((1 << 92) - 1));
        if (_allocators[allocatorId] == address(0)) revert UnregisteredAllocator(allocatorId);
    }

    function _allocatorOf(uint256 id) internal view returns (address allocator) {
        uint96 allocatorId = uint96((id >> 160) & ((1 << 92) - 1));
        allocator = _allocators[allocatorId];
        if (allocator == address(0)) revert UnregisteredAllocator(allocatorId);
    }

    function _compactFlag(address allocator) internal pure returns (uint8) {
        uint256 value = uint160(allocator);
        uint256 zeros;
        while (zeros < 18 && (value >> (156 - 4 * zeros)) & 0xf == 0) ++zeros;
        if (zeros < 4) return 0;
        return uint8(zeros - 3);
    }

    function _resetPeriodSeconds(uint8 resetPeriod) internal pure returns (uint256) {
        if (resetPeriod == 0) return 1;
        if (resetPeriod == 1) return 15;
        if (resetPeriod == 2) return 60;
        if (resetPeriod == 3) return 600;
        if (resetPeriod == 4) return 3900;
        if (resetPeriod == 5) return 86400;
        if (resetPeriod == 6) return 612000;
        return 2592000;
    }

    function _consumeNonce(address allocator, uint256 nonce) internal {
        if (_consumedNonces[allocator][nonce]) revert InvalidNonce(allocator, nonce);
        _consumedNonces[allocator][nonce] = true;
    }

    function _attest(address operator, address from, address to, uint256 id, uint256 amount) internal {
        address allocator = _allocatorOf(id);
        bytes4 result = IAllocator(allocator).attest(operator, from, to, id, amount);
        if (result != ATTEST_SELECTOR) revert UnallocatedTransfer(operator, from, to, id, amount);
    }

    function _sum(Component[] calldata components) internal pure returns (uint256 total) {
        for (uint256 i; i < components.length; ++i) total += components[i].amount;
    }

    function _recipientOrCaller(address recipient) internal view returns (address) {
        return recipient == address(0) ? msg.sender : recipient;
    }

    /// @dev Pulls an ERC-20 and returns what actually arrived (fee-on-transfer safe).
    function _pull(address token, uint256 amount) internal returns (uint256 received) {
        uint256 before = _balanceOfSelf(token);
        SafeTransferLib.safeTransferFrom(token, msg.sender, address(this), amount);
        uint256 after_ = _balanceOfSelf(token);
        if (after_ < before) revert InvalidDepositBalanceChange();
        received = after_ - before;
    }

    function _balanceOfSelf(address token) internal view returns (uint256) {
        (bool ok, bytes memory out) = token.staticcall(abi.encodeWithSelector(0x70a08231, address(this)));
        if (!ok || out.length < 32) revert InvalidToken(token);
        return abi.decode(out, (uint256));
    }

    function _release(uint256 id, address to, uint256 amount) internal {
        address token = address(uint160(id));
        if (token == address(0)) SafeTransferLib.safeTransferETH(to, amount);
        else SafeTransferLib.safeTransfer(token, to, amount);
    }

    function _mint(address to, uint256 id, uint256 amount) internal {
        balanceOf[to][id] += amount;
        emit Transfer(msg.sender, address(0), to, id, amount);
    }

    function _burn(address from, uint256 id, uint256 amount) internal {
        uint256 balance = balanceOf[from][id];
        if (balance < amount) revert InsufficientBalance(from, id);
        unchecked {
            balanceOf[from][id] = balance - amount;
        }
        emit Transfer(msg.sender, from, address(0), id, amount);
    }

    function _move(address from, address to, uint256 id, uint256 amount) internal {
        uint256 balance = balanceOf[from][id];
        if (balance < amount) revert InsufficientBalance(from, id);
        unchecked {
            balanceOf[from][id] = balance - amount;
        }
        balanceOf[to][id] += amount;
        emit Transfer(msg.sender, from, to, id, amount);
    }
}
