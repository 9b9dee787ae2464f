import { z } from 'zod'
import { ALL_VERSIONS, defineRoutes } from '../../spec'
import { DevnetEventsQuery } from '../events/schemas'
import {
  ExplorerChains,
  ExplorerIntent,
  ExplorerIntentList,
  ExplorerIntentParams,
  ExplorerIntentsQuery,
  ExplorerPageQuery,
  ExplorerQuoteList,
  ExplorerTransaction,
  ExplorerTransactionParams,
} from './schemas'

const SECTION =
  'DESIGN: The explorer ("GET /explorer: one page, local assets, live through GET /_devnet/events")'
const control = { versions: ALL_VERSIONS, access: 'control', tag: 'devnet' } as const
const page = {
  versions: ALL_VERSIONS,
  access: 'public',
  tag: 'explorer',
  hidden: true,
  stream: true,
} as const

/**
 * The devnet explorer's routes, in the contract's table format (spec/routeTable.ts): the page and
 * its files (no key: it asks for one), the live feed and the read endpoints under
 * `/_devnet/explorer/`. The simulator's own: the contract (spec/) does not know the explorer.
 */
export const EXPLORER_ROUTES = defineRoutes({
  explorerPage: {
    ...page,
    method: 'GET',
    path: '/explorer',
    section: SECTION,
    summary: 'The explorer page',
    responses: {},
  },
  explorerAsset: {
    ...page,
    method: 'GET',
    path: '/explorer/{file}',
    section: SECTION,
    summary: "The explorer page's script and style",
    request: { params: z.object({ file: z.string().max(40) }) },
    responses: {},
  },
  events: {
    ...control,
    method: 'GET',
    path: '/_devnet/events',
    section: `${SECTION}: GET /_devnet/events`,
    summary:
      'Live feed (text/event-stream): one event per intent lifecycle step, deposit step and webhook delivery',
    request: { querystring: DevnetEventsQuery },
    responses: {},
    stream: true,
  },
  explorerIntents: {
    ...control,
    method: 'GET',
    path: '/_devnet/explorer/intents',
    section: SECTION,
    summary: 'Intents, newest first, paged, or found by intentId or id (the explorer)',
    request: { querystring: ExplorerIntentsQuery },
    responses: { 200: ExplorerIntentList },
  },
  explorerIntent: {
    ...control,
    method: 'GET',
    path: '/_devnet/explorer/intents/{id}',
    section: SECTION,
    summary:
      'One intent (id or blanc intentId) with its timeline: times, transactions, gas used, revert reason',
    request: { params: ExplorerIntentParams },
    responses: { 200: ExplorerIntent },
  },
  explorerQuotes: {
    ...control,
    method: 'GET',
    path: '/_devnet/explorer/quotes',
    section: SECTION,
    summary: 'The blanc quote store with each expiry on the devnet clock, newest first, paged',
    request: { querystring: ExplorerPageQuery },
    responses: { 200: ExplorerQuoteList },
  },
  explorerChains: {
    ...control,
    method: 'GET',
    path: '/_devnet/explorer/chains',
    section: SECTION,
    summary: "Each chain's head block and time, and the devnet clock",
    responses: { 200: ExplorerChains },
  },
  explorerTransaction: {
    ...control,
    method: 'GET',
    path: '/_devnet/explorer/chains/{chainId}/transactions/{hash}',
    section: SECTION,
    summary: 'A transaction, its receipt, and its call decoded by the ABI of our contract it calls',
    request: { params: ExplorerTransactionParams },
    responses: { 200: ExplorerTransaction },
  },
})
