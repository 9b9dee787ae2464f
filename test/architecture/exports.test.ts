import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { expect, test } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

/** The names an entry point exports, sorted: a changed public surface shows in review. */
const names = async (specifier: string) => Object.keys(await import(specifier)).sort()

test('package.json exports the entry points', async () => {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
  expect(pkg.exports).toMatchInlineSnapshot(`
    {
      ".": {
        "default": "./dist/lib/index.js",
        "types": "./dist/types/simulator/index.d.ts",
      },
      "./conformance": {
        "default": "./dist/lib/conformance.js",
        "types": "./dist/types/conformance/index.d.ts",
      },
      "./jest": {
        "default": "./integrations/jest/index.cjs",
        "types": "./integrations/jest/index.d.cts",
      },
      "./jest/globalSetup": "./integrations/jest/globalSetup.cjs",
      "./jest/globalTeardown": "./integrations/jest/globalTeardown.cjs",
      "./package.json": "./package.json",
      "./spec": {
        "import": "./dist/lib/spec.js",
        "require": "./dist/lib/spec.cjs",
        "types": "./dist/types/spec/index.d.ts",
      },
      "./testcontainers": {
        "import": "./dist/lib/testcontainers.js",
        "require": "./dist/lib/testcontainers.cjs",
        "types": "./dist/types/integrations/testcontainers.d.ts",
      },
      "./vitest": {
        "default": "./dist/lib/vitest.js",
        "types": "./dist/types/integrations/vitest.d.ts",
      },
    }
  `)
})

test('intent-devnet/testcontainers', async () => {
  expect(await names('intent-devnet/testcontainers')).toMatchInlineSnapshot(`
    [
      "DEFAULT_IMAGE",
      "ImageMissingError",
      "IntentDevnetContainer",
      "NoContainerRuntimeError",
      "StartedIntentDevnetContainer",
    ]
  `)
})

test('intent-devnet/vitest', async () => {
  expect(await names('intent-devnet/vitest')).toMatchInlineSnapshot(`
    [
      "default",
      "isolateDevnet",
      "revertDevnet",
      "snapshotDevnet",
      "workerDevnet",
    ]
  `)
})

test('intent-devnet/jest', async () => {
  const require = createRequire(import.meta.url)
  expect(Object.keys(require('intent-devnet/jest')).sort()).toMatchInlineSnapshot(`
    [
      "devnetManifest",
      "isolateDevnet",
      "revertDevnet",
      "snapshotDevnet",
    ]
  `)
  expect(typeof require('intent-devnet/jest/globalSetup')).toBe('function')
  expect(typeof require('intent-devnet/jest/globalTeardown')).toBe('function')
})

test('intent-devnet (the simulator)', async () => {
  expect(await names('intent-devnet')).toMatchInlineSnapshot(`
    [
      "BaseError",
      "DEFAULT_API_KEY",
      "DEFAULT_HOST",
      "DEFAULT_PORT",
      "DEFAULT_QUOTE_TTL_SECONDS",
      "ERROR_CODES",
      "FAULT_CATALOGUE",
      "FAULT_NAMES",
      "captureChainState",
      "createFaults",
      "createServices",
      "readStateMeta",
      "startDevnet",
      "startSimulator",
      "writeDevnetState",
    ]
  `)
})

test('intent-devnet/conformance (the runner)', async () => {
  expect(await names('intent-devnet/conformance')).toMatchInlineSnapshot(`
    [
      "REPORTERS",
      "ScenarioFileError",
      "TargetUnreachableError",
      "detectCapabilities",
      "loadScenarios",
      "parseScenario",
      "parseShard",
      "runConformance",
      "selectShard",
      "startWebhookReceiver",
      "summarize",
      "verifyWebhookSignature",
      "writeReports",
    ]
  `)
})

test('intent-devnet/spec (the schemas)', async () => {
  expect(await names('intent-devnet/spec')).toMatchInlineSnapshot(`
    [
      "ALL_VERSIONS",
      "ALPS_ONLY",
      "API_VERSIONS",
      "API_VERSION_PATTERN",
      "Account",
      "AccountAccessList",
      "Address",
      "AlpsErrorEnvelope",
      "AlpsRouteResponse",
      "Authorization",
      "BATCH_COMPACT_TYPES",
      "BLANC_ONLY",
      "BatchWithdrawalRequest",
      "BatchWithdrawalResponse",
      "BlancErrorEnvelope",
      "BlancIdParams",
      "BlancIntentStatus",
      "BlancPublicSubmitRequest",
      "BlancRoute",
      "BlancRouteResponse",
      "BlancSignatures",
      "BlancSubmitRequest",
      "BlancSubmitResponse",
      "BridgeFailedData",
      "CLAIM_STATUSES",
      "COMPACT_TYPES",
      "Caip2ChainId",
      "ChainIdKey",
      "ClockAdvanceRequest",
      "ClockAdvanceResponse",
      "Component",
      "ControlApiError",
      "DEFAULT_ACCOUNT_BALANCE_ETHER",
      "DEFAULT_ACCOUNT_COUNT",
      "DEFAULT_API_KEY",
      "DEFAULT_CHAIN_IDS",
      "DEFAULT_HOST",
      "DEFAULT_PORT",
      "DEPOSIT_ERROR_CODES",
      "DEPOSIT_PROCESSOR_ROUTES",
      "DEPOSIT_STATUSES",
      "DEVNET_ROUTES",
      "Deposit",
      "DepositList",
      "DepositListQuery",
      "DepositProcessorConfig",
      "DepositProcessorParams",
      "DepositProcessorRegisterRequest",
      "DepositProcessorRegisterResponse",
      "DepositProcessorSetupRequest",
      "DepositProcessorSetupResponse",
      "DepositWhitelistEntry",
      "DevnetManifest",
      "EIP712_DOMAIN_TYPES",
      "EIP712_DOMAIN_TYPES_NO_CHAIN_ID",
      "EIP712_DOMAIN_TYPES_NO_VERSION",
      "EMISSARY_ENABLE_TYPES",
      "ERROR_ENVELOPES",
      "Element",
      "EmissaryConfig",
      "Execution",
      "FaultsRequest",
      "FaultsResponse",
      "FeeParts",
      "Hash",
      "HealthResponse",
      "Hex",
      "HexBytes",
      "INTENT_ROUTES",
      "INTENT_STATUSES",
      "IdAndAmount",
      "IdParams",
      "IntegerLike",
      "IntegerString",
      "IntentCost",
      "IntentIdParams",
      "IntentOp",
      "IntentStatus",
      "LOCK_TYPE",
      "MANDATE_TYPES",
      "MAX_PRICE_USD",
      "MAX_UINT256",
      "MIN_PRICE_USD",
      "MULTICHAIN_COMPACT_TYPES",
      "Mandate",
      "ManifestToken",
      "OP_TYPES",
      "OperationIdParams",
      "PERMIT_BATCH_WITNESS_TYPES",
      "PRE_CLAIM_MAX_CHAINS",
      "PRE_CLAIM_MAX_OPS_PER_CHAIN",
      "Portfolio",
      "PortfolioParams",
      "PortfolioQuery",
      "PortfolioToken",
      "PreClaimExecutions",
      "PricesRequest",
      "PricesResponse",
      "QuotesResetResponse",
      "ROUTES",
      "RevertRequest",
      "RevertResponse",
      "RouteOptions",
      "RouteRequest",
      "SINGLE_CHAIN_OPS_TYPES",
      "SPONSORSHIP_VALUES",
      "START_OPTIONS",
      "START_OPTION_NAMES",
      "SafeInteger",
      "SettlementContext",
      "SetupOp",
      "SignedIntentOp",
      "SignedMetadata",
      "SignedMetadataAccount",
      "SnapshotResponse",
      "SponsorFee",
      "SponsorshipEntry",
      "StartOptionsError",
      "SubmissionResult",
      "SubmitIntentOperationRequest",
      "SwapDestination",
      "TokenRequest",
      "TypedData",
      "WEBHOOK_EVENT_STATUSES",
      "WEBHOOK_EVENT_TYPES",
      "WebhookDeliveryAttempt",
      "WebhookEnvelope",
      "WebhookEvent",
      "WebhookEventList",
      "WebhookEventListQuery",
      "WebhookResendFailedRequest",
      "WebhookResendFailedResponse",
      "WithdrawalRequest",
      "WithdrawalResponse",
      "caip2Record",
      "checkResponse",
      "createControlClient",
      "defineRoutes",
      "findRoute",
      "methodsOf",
      "parseStartOptionText",
      "parseStartOptions",
      "responseSchemaOf",
      "specSchemaNameOf",
      "specSchemas",
      "startOptionArgs",
      "toApiVersion",
      "toBigInt",
      "toFastifyPath",
    ]
  `)
})
