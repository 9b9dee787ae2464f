/**
 * The simulator's public entry point (`import { startSimulator } from 'intent-devnet'`): start
 * the devnet with the service in front, or build the domain services on a devnet of your own.
 */

export { BaseError, type BaseErrorParameters } from '../spec/BaseError'
export { DEFAULT_API_KEY, DEFAULT_HOST, DEFAULT_PORT } from '../spec/startOptions'
export { type CapturedChainState, captureChainState } from './devnet/captureChainState'
export { type Devnet, type StartDevnetParameters, startDevnet } from './devnet/startDevnet'
export { type ChainGas, readStateMeta, writeDevnetState } from './devnet/stateDir'
export { createFaults, FAULT_CATALOGUE, FAULT_NAMES, type FaultName, type Faults } from './faults/faults'
export { ERROR_CODES, type ErrorCode } from './http/errorCodes'
export {
  type CreateServicesParameters,
  createServices,
  DEFAULT_QUOTE_TTL_SECONDS,
  type DomainServices,
  type Simulator,
  type StartSimulatorParameters,
  startSimulator,
} from './startSimulator'
