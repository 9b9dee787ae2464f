// The base error lives in lib/ (the bottom layer: lib/keepAliveTransport's errors extend it, and
// lib/ imports nothing of ours); the contract re-exports it for everyone who imports it from here.
export { BaseError, type BaseErrorParameters } from '../lib/BaseError'
