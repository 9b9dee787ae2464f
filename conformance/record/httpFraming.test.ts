import { describe, expect, test } from 'vitest'
import { answerBody, createAnswerParser, feedAnswer, takeRequest } from './httpFraming'

/** Feeds an answer a byte at a time: the state machine must reach the same end whatever the split. */
const byteByByte = (method: string, text: string) => {
  const parser = createAnswerParser(method)
  const states: string[] = []
  for (const byte of Buffer.from(text, 'latin1')) states.push(feedAnswer(parser, Buffer.from([byte])))
  return { parser, states }
}

describe('the answer state machine', () => {
  test('a chunked body, fed a byte at a time, ends after its trailer with the body de-chunked', () => {
    const text =
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n6;x=1\r\n world\r\n0\r\nx-t: 1\r\n\r\n'
    const { parser, states } = byteByByte('GET', text)
    expect(states.at(-1)).toBe('complete')
    expect(states.slice(0, -1)).not.toContain('complete')
    expect(answerBody(parser).toString()).toBe('hello world')
    expect(parser.status).toBe(200)
  })

  test('a body of known length; an interim 100 before it; bytes past its end dropped', () => {
    const parser = createAnswerParser('POST')
    expect(
      feedAnswer(
        parser,
        Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 4\r\n\r\nab'),
      ),
    ).toBe('length')
    expect(feedAnswer(parser, Buffer.from('cdEXTRA'))).toBe('complete')
    expect(answerBody(parser).toString()).toBe('abcd')
    expect(parser.pending.length).toBe(0)
  })

  test('HEAD, 204 and 304 have no body; no length means up to the connection end; 101 is an upgrade', () => {
    expect(
      feedAnswer(createAnswerParser('HEAD'), Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\n')),
    ).toBe('complete')
    expect(feedAnswer(createAnswerParser('GET'), Buffer.from('HTTP/1.1 204 No Content\r\n\r\n'))).toBe(
      'complete',
    )
    const stream = createAnswerParser('GET')
    expect(feedAnswer(stream, Buffer.from('HTTP/1.1 200 OK\r\n\r\ndata: 1\n'))).toBe('until-close')
    expect(stream.closes).toBe(true)
    expect(
      feedAnswer(
        createAnswerParser('GET'),
        Buffer.from('HTTP/1.1 101 Switching\r\nupgrade: websocket\r\n\r\n'),
      ),
    ).toBe('upgrade')
  })

  test('bytes that are not an HTTP answer, or a malformed chunk size, throw', () => {
    expect(() => feedAnswer(createAnswerParser('GET'), Buffer.from('SSH-2.0\r\n\r\n'))).toThrow(
      /not an HTTP answer/,
    )
    expect(() =>
      feedAnswer(
        createAnswerParser('GET'),
        Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'),
      ),
    ).toThrow(/malformed chunk size/)
  })
})

describe('takeRequest', () => {
  test('a whole request with a body, and what follows it', () => {
    const taken = takeRequest(Buffer.from('\r\nPOST /a HTTP/1.1\r\nContent-Length: 2\r\n\r\nhiGET /b'))
    expect(taken.kind).toBe('request')
    if (taken.kind !== 'request') return
    expect(taken.request.head).toMatchObject({ method: 'POST', path: '/a', lines: ['Content-Length: 2'] })
    expect(taken.request.body.toString()).toBe('hi')
    expect(taken.rest.toString()).toBe('GET /b')
  })

  test('a partial request that expects 100-continue; a bad one; HTTP/1.0 closes unless kept alive', () => {
    expect(
      takeRequest(Buffer.from('POST /a HTTP/1.1\r\nexpect: 100-continue\r\ncontent-length: 5\r\n\r\n')),
    ).toMatchObject({
      kind: 'partial',
      expectsContinue: true,
    })
    expect(takeRequest(Buffer.from('NOT HTTP\r\n\r\n')).kind).toBe('bad')
    const old = takeRequest(Buffer.from('GET / HTTP/1.0\r\n\r\n'))
    expect(old.kind === 'request' && old.request.close).toBe(true)
  })
})
