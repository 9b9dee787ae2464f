/**
 * Whether a process with this pid exists (signal 0: nothing is sent). A zombie counts as existing:
 * tests that check nothing is left over want it reaped too.
 *
 * @example
 * expect(isAlive(child.pid!)).toBe(false)
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
