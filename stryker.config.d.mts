/** The folders of simulator/ that mutation testing mutates (stryker.config.mjs). */
export declare const MUTATED_FOLDERS: string[]
declare const config: Record<string, unknown>
export default config
