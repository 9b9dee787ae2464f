import type { Faults } from '../../faults/faults'

/** What the HTTP faults read of the registry: whether a fault is on. */
export type Has = Pick<Faults, 'has'>
