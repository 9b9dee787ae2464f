import { expect, test } from 'vitest'
import { createFaults, FAULT_CATALOGUE, FAULT_NAMES, UnknownFaultError } from './faults'

test('enable, disable, clear, has and list (in catalogue order)', () => {
  const faults = createFaults()
  expect(faults.list()).toEqual([])
  faults.enable(['errors.no-trace-id', 'version.accept-unknown'])
  expect(faults.has('errors.no-trace-id')).toBe(true)
  expect(faults.has('errors.omit-code')).toBe(false)
  expect(faults.list()).toEqual(['version.accept-unknown', 'errors.no-trace-id'])
  faults.disable(['errors.no-trace-id'])
  expect(faults.list()).toEqual(['version.accept-unknown'])
  faults.clear()
  expect(faults.list()).toEqual([])
})

test('an unknown name enables nothing and names the known faults', () => {
  const faults = createFaults()
  expect(() => faults.enable(['errors.omit-code', 'nope'])).toThrow(UnknownFaultError)
  expect(faults.list()).toEqual([])
  const error = (() => {
    try {
      faults.disable(['nope', 'also-nope'])
    } catch (error) {
      return error as UnknownFaultError
    }
  })()
  expect(error).toBeInstanceOf(UnknownFaultError)
  expect(error?.shortMessage).toMatchInlineSnapshot(`"Unknown faults: nope, also-nope."`)
  expect(error?.message).toContain(FAULT_NAMES.join(', '))
})

test('every fault has a one-line description', () => {
  for (const description of Object.values(FAULT_CATALOGUE)) expect(description).toMatch(/^[^\n]{10,}$/)
})
