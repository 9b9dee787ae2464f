// The direction of imports (docs/architecture.md): upper layers import lower ones, never the
// reverse. `npm run check` runs this; a violation fails the build.
//
//   cli → startSimulator → faultInjection/http → http, faultInjection → intents/settlement/quoting/
//   deposits/withdrawals → prices, signing, eip712 → devnet → faults, util (spec, contracts: anyone)
//   Only faultInjection/ (its HTTP plugin in faultInjection/http/ included) and the composition
//   root know the fault switchboard (faults/); http/ knows no fault.
//
// Tests and `testing/` helpers may reach across layers to wire what they check.
const notTest = '\\.test\\.ts$|/testing/'

/** `from` may import, inside simulator/, only these folders (and itself); `except` are subfolders with a rule of their own. */
const layer = (from, allowed, except = []) => ({
  name: `layer-${from}`,
  comment: `simulator/${from}/ may import only ${allowed.join(', ') || 'nothing else'} inside simulator/.`,
  severity: 'error',
  from: {
    path: `^simulator/${from}/`,
    pathNot: [notTest, ...except.map((folder) => `^simulator/${folder}/`)],
  },
  to: {
    path: '^simulator/',
    pathNot: [`^simulator/${from}/`, ...allowed.map((folder) => `^simulator/${folder}/`)],
  },
})

// events/: the domain event bus (publish/subscribe, no HTTP); every layer may publish.
const base = ['util', 'events']
const chains = ['devnet', 'faults', ...base]
const crypto = ['eip712', 'signing', ...chains]

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles between files; type-only imports count (tsPreCompilationDeps). Folders inside simulator/ are ordered by the layer rules below.',
      // test/architecture/importDirection.test.ts proves it catches one (a clock ⇄ checkpoint probe).
      from: { pathNot: notTest },
      to: { circular: true },
    },
    {
      name: 'domain-knows-no-http',
      severity: 'error',
      comment: 'Only simulator/http/ and the composition root speak HTTP: domain code throws its own errors.',
      from: {
        path: '^simulator/',
        pathNot: [
          notTest,
          '^simulator/http/',
          // The HTTP fault plugin: Fastify hooks around the HTTP plugins, registered by the root.
          '^simulator/faultInjection/http/',
          '^simulator/(startSimulator|index)\\.ts$',
          '^cli/',
        ],
      },
      to: { path: ['^simulator/http/', '^node_modules/(fastify|@fastify|fastify-[^/]+)/'] },
    },
    {
      name: 'routes-speak-no-json-rpc',
      severity: 'error',
      comment:
        "Routes call domain services; chain calls (viem, devnet) stay below them. bootStateFiles.js is the build's stamps (no chain call): the baked OpenAPI document is fresh when the bundle is.",
      from: { path: '^simulator/http/', pathNot: notTest },
      to: {
        path: ['^node_modules/viem/', '^simulator/devnet/(?!devnetService\\.ts$|bootStateFiles\\.js$)'],
      },
    },
    {
      name: 'domain-knows-no-faults',
      severity: 'error',
      comment:
        'Faults wrap the domain, never live in it: the composition root puts the decorators of simulator/faultInjection/ around the domain services; no domain module knows the fault switchboard.',
      from: {
        path: '^simulator/(quoting|intents|settlement|deposits|withdrawals|signing|explorer|prices|eip712)/',
        pathNot: notTest,
      },
      to: { path: '^simulator/faults/' },
    },
    {
      name: 'http-knows-no-faults',
      severity: 'error',
      comment:
        "HTTP faults are hooks of one Fastify plugin (simulator/faultInjection/http/) that the composition root registers through buildApp's `plugins`: the HTTP plugins, routes and shaping expose policies it wraps, and never import the fault switchboard or the fault decorators.",
      from: { path: '^simulator/http/', pathNot: notTest },
      to: { path: '^simulator/(faults|faultInjection)/' },
    },
    layer('util', []),
    layer('events', []),
    layer('faults', base),
    layer('devnet', ['faults', ...base]),
    layer('eip712', chains),
    layer('signing', ['eip712', ...chains]),
    layer('prices', base),
    layer('quoting', ['prices', ...crypto]),
    layer('intents', ['quoting', 'prices', ...crypto]),
    layer('settlement', ['intents', 'quoting', 'prices', ...crypto]),
    layer('withdrawals', crypto),
    layer('deposits', ['prices', ...crypto]),
    layer('explorer', ['intents', 'quoting', 'prices', ...crypto]),
    layer(
      'faultInjection',
      ['intents', 'quoting', 'deposits', 'withdrawals', 'prices', ...crypto],
      ['faultInjection/http'],
    ),
    layer('faultInjection/http', ['http', 'faults', ...base]),
    layer('http', [
      'intents',
      'settlement',
      'quoting',
      'deposits',
      'withdrawals',
      'prices',
      'explorer',
      ...crypto,
    ]),
    {
      name: 'cli-on-top',
      severity: 'error',
      comment: 'Nothing imports the CLI.',
      from: { pathNot: ['^cli/', '^conformance/cli', '^bin/', notTest] },
      to: { path: '^cli/' },
    },
    {
      name: 'conformance-uses-only-the-public-simulator',
      severity: 'error',
      comment:
        "The conformance suite judges any target over HTTP and RPC: it imports the contract (spec/), never the simulator's internals; it may start a simulator through its public entry point.",
      from: { path: '^conformance/', pathNot: notTest },
      to: { path: '^simulator/', pathNot: '^simulator/index\\.ts$' },
    },
    {
      name: 'simulator-knows-no-conformance',
      severity: 'error',
      comment: 'The simulator imports the contract (spec/), never the conformance suite.',
      from: { path: '^simulator/', pathNot: notTest },
      to: { path: '^conformance/' },
    },
    {
      name: 'spec-is-the-bottom',
      severity: 'error',
      comment: 'The contract (spec/: schemas, route table, base error) imports nothing of ours but lib/.',
      from: { path: '^spec/' },
      to: { path: ['^simulator/', '^conformance/', '^cli/', '^integrations/'] },
    },
    {
      name: 'lib-is-the-bottom',
      severity: 'error',
      comment: 'lib/ holds primitives both halves use (native signing); it imports nothing of ours.',
      from: { path: '^lib/' },
      to: { path: ['^simulator/', '^conformance/', '^cli/', '^spec/', '^integrations/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^contracts/generated/', '\\.scratch'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
}
