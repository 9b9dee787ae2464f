#!/usr/bin/env node
// Loads the TypeScript CLI through tsx's loader in this same process, so no build step is
// needed and signals reach the service directly.
import { register } from 'tsx/esm/api'

register()
await import('../simulator/cli/main.ts')
