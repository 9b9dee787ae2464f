import { describe, expect, test } from 'vitest'
import { joinUrl } from './buildHttpRequest'

/** joinUrl as it was before its plain-path shortcut: always through the URL parser. */
function parsed(target: string, path: string): string {
  const base = new URL(target)
  const prefix = base.pathname.replace(/\/$/, '')
  return new URL(`${prefix}${path}`, base.origin).toString()
}

/** A join's URL, or the error it throws (a path the parser refuses, e.g. `//[`). */
function outcome(join: (target: string, path: string) => string, target: string, path: string): string {
  try {
    return join(target, path)
  } catch (error) {
    return `throws ${(error as Error).name}`
  }
}

const TARGETS = [
  'http://127.0.0.1:4000',
  'http://127.0.0.1:4000/',
  'http://LocalHost:80/api/v2/',
  'https://vendor.example/base',
  'http://[::1]:8080/x%20y',
  'http://user:pw@host:81/p',
]

describe('joinUrl', () => {
  test('the same URL as the parser, for paths of the packs and for paths it must resolve or encode', () => {
    const paths = [
      '/health',
      '/intents/route',
      '/intents/42/submit',
      '/intent-operation/123',
      '/deposit-processor/deposits?limit=0',
      '/deposit-processor/deposits?cursor=abc&limit=5',
      '/_devnet/faults',
      '/openapi.json',
      '/a/.../b',
      '/',
      '/?',
      '/a/./b',
      '/a/../b',
      '/a/..',
      '/a/.',
      '/a/.?x=1',
      '//evil.example/x',
      '/a//b',
      '/a b',
      '/a%2e%2e/b',
      '/a/%2E%2E/b',
      '/ä',
      '/a#frag',
      '/a?x=<y>',
      '/a?x=/../y',
      '/a\\b',
      '/a?b?c',
      "/a?x='y'",
      '/a|b',
      '/a{b}',
    ]
    for (const target of TARGETS)
      for (const path of paths)
        expect(outcome(joinUrl, target, path), `${target} + ${path}`).toBe(outcome(parsed, target, path))
  })

  test('random paths over an alphabet with every character the shortcut treats specially', () => {
    let seed = 29
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    const alphabet = 'az09-_.~/?=&,:%# \\\'"<>@!$;+*()[]|{}^`ä'
    for (let i = 0; i < 3000; i++) {
      let path = '/'
      const length = Math.floor(random() * 12)
      for (let j = 0; j < length; j++) path += alphabet[Math.floor(random() * alphabet.length)]
      for (const target of TARGETS)
        expect(outcome(joinUrl, target, path), `${target} + ${path}`).toBe(outcome(parsed, target, path))
    }
  })
})
