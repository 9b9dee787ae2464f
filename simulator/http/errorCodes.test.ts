import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { BaseError } from '../../spec/BaseError'
import { ApiError, ERROR_CODES } from './errorCodes'

/** Rows of the first markdown table under `## Error codes` in docs/errors.md. */
function documentedCodes(): { code: string; status: number; meaning: string }[] {
  const markdown = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
  const section = markdown.split('## Error codes')[1]?.split('\n## ')[0] ?? ''
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
    .filter(([first]) => first !== 'Code')
    .map(([code = '', status = '', meaning = '']) => ({ code, status: Number(status), meaning }))
}

test('docs/errors.md documents exactly the table of errorCodes.ts', () => {
  const table = Object.entries(ERROR_CODES).map(([code, { status, meaning }]) => ({ code, status, meaning }))
  expect(documentedCodes()).toEqual(table)
})

test('the table has the codes and statuses of the public service', () => {
  const statuses = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]))
  expect(statuses).toMatchInlineSnapshot(`
    {
      "CONFLICT": 409,
      "EXPECTATION_FAILED": 417,
      "EXTERNAL_SERVICE_TIMEOUT": 504,
      "FORBIDDEN": 403,
      "HEADERS_TOO_LARGE": 431,
      "INSUFFICIENT_LIQUIDITY": 422,
      "INTERNAL_ERROR": 500,
      "KEY_SCOPE_DENIED": 403,
      "NOT_FOUND": 404,
      "PAYLOAD_TOO_LARGE": 413,
      "QUOTE_STORE_FULL": 503,
      "RELAYER_MARKET_UNAVAILABLE": 503,
      "REQUEST_TIMEOUT": 408,
      "SETTLEMENT_EXECUTION_ERROR": 502,
      "SETTLEMENT_QUOTE_ERROR": 502,
      "SIMULATION_FAILED": 422,
      "TOO_MANY_REQUESTS": 429,
      "UNAUTHORIZED": 401,
      "UNPROCESSABLE_CONTENT": 422,
      "VALIDATION_ERROR": 400,
      "WITHDRAWAL_IN_PROGRESS": 409,
    }
  `)
})

test('ApiError carries code, status and data, and is a BaseError', () => {
  const error = new ApiError('TOO_MANY_REQUESTS', 'Slow down.', {
    data: { limit: 10 },
    headers: { 'retry-after': '1' },
  })
  expect(error).toBeInstanceOf(BaseError)
  expect([
    error.name,
    error.code,
    error.statusCode,
    error.shortMessage,
    error.data,
    error.headers,
  ]).toMatchInlineSnapshot(`
    [
      "Http.ApiError",
      "TOO_MANY_REQUESTS",
      429,
      "Slow down.",
      {
        "limit": 10,
      },
      {
        "retry-after": "1",
      },
    ]
  `)
})
