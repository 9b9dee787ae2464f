/**
 * Swagger UI (`GET /docs`, through @fastify/swagger-ui) inside our bundles instead of beside them:
 * the package finds its static files through `__dirname`, which a bundle loses, so the build
 * copies them to `dist/swagger-ui/static` and points the package's `__dirname` there. With it
 * inlined, @fastify/swagger-ui and @fastify/static (whose content-disposition wants Node ≥ 22)
 * are no runtime dependency of the published package.
 */
import { cpSync, mkdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import type { Plugin } from 'esbuild'

/** Where the assets go, relative to the project's root. */
export const SWAGGER_UI_DIR = 'dist/swagger-ui'

/** The installed @fastify/swagger-ui's folder. */
const packageDir = (root: string) =>
  dirname(createRequire(join(root, 'package.json')).resolve('@fastify/swagger-ui/package.json'))

/**
 * Copies Swagger UI's static files to {@link SWAGGER_UI_DIR} (once per build).
 *
 * @example
 * copySwaggerUiAssets(ROOT)
 */
export function copySwaggerUiAssets(root: string): void {
  const target = join(root, SWAGGER_UI_DIR, 'static')
  mkdirSync(target, { recursive: true })
  cpSync(join(packageDir(root), 'static'), target, { recursive: true })
}

/**
 * An esbuild plugin: in @fastify/swagger-ui's own files, `__dirname` becomes the same folder
 * under {@link SWAGGER_UI_DIR}, found from `rootPath` (an expression of the bundle: the project's
 * root as a path, e.g. `__rootPath('')`).
 *
 * @example
 * build({ plugins: [swaggerUiAssets(ROOT, "__rootPath('')")] })
 */
export function swaggerUiAssets(root: string, rootPath: string): Plugin {
  const dir = packageDir(root)
  return {
    name: 'swagger-ui-assets',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async (args) => {
        const inside = relative(dir, args.path)
        if (inside.startsWith('..') || inside.includes('node_modules')) return undefined
        const folder = dirname(inside) === '.' ? '' : `/${dirname(inside)}`
        const source = await readFile(args.path, 'utf8')
        const contents = source.replaceAll(
          '__dirname',
          `require('node:path').join(${rootPath}, ${JSON.stringify(`${SWAGGER_UI_DIR}${folder}`)})`,
        )
        return { contents, loader: 'js' }
      })
    },
  }
}
