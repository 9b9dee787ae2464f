/**
 * What this target knowingly does differently, each with the checks of the packs that catch it
 * (every check of the step it fails, as a report names them).
 */
export const DEPARTURES = [
  {
    what: 'accepts 11 preClaimExecutions operations on a chain (the limit it enforces is 12)',
    level: 'MUST',
    checks: [
      'limits.ops-per-chain/2/status',
      'limits.ops-per-chain/2/reason',
      'limits.ops-on-5-chains/2/status',
      'limits.ops-on-5-chains/2/reason',
    ],
  },
  {
    what: 'accepts 11 preClaimExecutions operations on a chain: the public service answers 400 in the envelope',
    level: 'SHOULD',
    checks: [
      'limits.ops-per-chain/2/should status',
      'limits.ops-per-chain/2/should envelope blanc',
      'limits.ops-on-5-chains/2/should status',
      'limits.ops-on-5-chains/2/should envelope blanc',
    ],
  },
  {
    what: 'answers 403 FORBIDDEN, not 401 UNAUTHORIZED, to a key it does not know',
    level: 'SHOULD',
    checks: ['authentication.wrong-key/1/status', 'authentication.wrong-key/1/body /code'],
  },
  {
    what: 'ignores accountAccessList: it quotes its one route on the destination chain whatever chains the list allows',
    level: 'MUST',
    checks: ['quotes.access-allow-chains/1/status', 'quotes.access-allow-chains/1/body /routes'],
  },
  // The token-based access-list scenarios read cost.input's symbol, a field the spec leaves open.
  ...(
    [
      'access-allow-tokens',
      'access-exclude-tokens',
      'access-allow-chain-tokens',
      'access-exclude-chain-tokens',
    ] as const
  ).map(
    (id) =>
      ({
        what: `names no symbol in a route's cost.input items (the spec names only amount), so quotes.${id} cannot tell its tokens`,
        level: 'SHOULD',
        checks: [`quotes.${id}/1/status`, `quotes.${id}/1/body /routes`],
      }) as const,
  ),
] as const

/**
 * What the misbehaving variant does, and what the spec says of it: a behaviour the spec allows
 * must pass (or fail only a SHOULD); one it forbids must fail.
 */
export const MISBEHAVIOURS = {
  /** Its error bodies say only "Invalid request"; the field or limit is named in `details[]` alone. Allowed. */
  reasonsInDetails: 'errors name the field or limit in details[] only',
  /** A request without x-api-version is served as blanc (the header is optional). Allowed; alps by default is SHOULD. */
  headerlessAsBlanc: 'serves a request without x-api-version as blanc',
  /** Its quote request takes destinationChainId as a CAIP-2 id (`eip155:8453`), the public service's shape. Allowed under --profile public (learned). */
  caip2Chains: 'takes destinationChainId as eip155:<n> only',
  /** Accepts an amount of any size (beyond 2^256 - 1). Forbidden: an amount string is a uint256. */
  acceptAnyAmount: 'accepts an amount beyond 2^256 - 1',
  /** A route's cost.input amount as a JSON number, a fee's usd as a decimal string. Allowed: the spec shows neither type. */
  otherTypes: 'writes cost.input amounts as numbers and fee usd values as strings',
  /** A field the spec does not name (`_links`) in every answer. Allowed: clients ignore unknown response fields (Versioning §6). */
  extraFields: 'adds a field the spec does not name to every answer',
  /** `application/json; charset=utf-8`, a byte-order mark, and gzip whether asked or not (a proxy's doing). Allowed: HTTP. */
  wireFormat: 'answers gzip-compressed JSON with a charset and a byte-order mark',
} as const
export type Misbehaviour = keyof typeof MISBEHAVIOURS

/** The checks that catch the misbehaviours the spec does not allow (or grades SHOULD). */
export const MISBEHAVIOUR_DEPARTURES = [
  {
    what: MISBEHAVIOURS.headerlessAsBlanc,
    level: 'SHOULD',
    checks: ['versioning.missing-header/2/any of', 'versioning.missing-header-blanc-path/2/any of'],
  },
  {
    what: MISBEHAVIOURS.acceptAnyAmount,
    level: 'MUST',
    checks: ['bad-input.huge-numbers/1/status', 'bad-input.huge-numbers/1/reason'],
  },
  {
    what: MISBEHAVIOURS.acceptAnyAmount,
    level: 'SHOULD',
    checks: [
      'bad-input.huge-numbers/1/should status',
      'bad-input.huge-numbers/1/should envelope blanc',
      'bad-input.huge-numbers/1/should body /code',
    ],
  },
] as const
