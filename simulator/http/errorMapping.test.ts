import { expect, test } from 'vitest'
import { BaseError } from '../../spec/BaseError'
import * as depositErrors from '../deposits/errors'
import * as intentErrors from '../intents/errors'
import { InvalidPriceError } from '../prices/prices'
import * as quoteErrors from '../quoting/errors'
import * as withdrawalErrors from '../withdrawals/errors'
import { DOMAIN_ERROR_CODES, toApiErrorOfDomain } from './errorMapping'

/** Error classes a domain throws at callers; StateFileError is a startup failure, never an answer. */
const answered = [
  ...Object.values(quoteErrors),
  ...Object.values(intentErrors),
  ...Object.values(withdrawalErrors),
  ...Object.values(depositErrors).filter((e) => e !== depositErrors.StateFileError),
  InvalidPriceError,
].filter((value) => typeof value === 'function' && value.prototype instanceof BaseError)

test('every domain error class a caller can meet has a code', () => {
  const mapped = new Set(DOMAIN_ERROR_CODES.map(([errorClass]) => errorClass))
  expect(answered.filter((errorClass) => !mapped.has(errorClass as never)).map((c) => c.name)).toEqual([])
  expect(answered.length).toBe(DOMAIN_ERROR_CODES.length)
})

test('a domain error keeps its message and facts; anything else is not a domain answer', () => {
  const error = toApiErrorOfDomain(new intentErrors.QuoteNotFoundError('0xabc'))
  expect(error?.statusCode).toBe(404)
  expect(error?.code).toBe('NOT_FOUND')
  expect(error?.data).toEqual({ intentId: '0xabc' })
  expect(error?.shortMessage).toMatchInlineSnapshot(
    `"Quote 0xabc has expired, was already submitted, or was never issued; request a new quote."`,
  )
  expect(toApiErrorOfDomain(new Error('boom'))).toBeUndefined()
  expect(toApiErrorOfDomain(new BaseError('ours, but not an answer'))).toBeUndefined()
})
