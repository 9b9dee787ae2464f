import { startFakeTarget } from '/work/wt/i28/test/conformance/fakeTarget'
const fake = await startFakeTarget('blanc 404')
console.log(fake.url)
setTimeout(() => fake.close(), 120_000)
