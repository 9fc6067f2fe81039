// Preloaded into a Parley process by the fault tests (`node --expose-gc
// --import <this file> dist/server/main.js`): on SIGUSR2, collects garbage and
// prints one line `MEMPROBE {"rss":…,"heapUsed":…,…}` on stderr, so the test
// reads the process's memory without any code of the service knowing of it.
process.on('SIGUSR2', () => {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
  process.stderr.write(`MEMPROBE ${JSON.stringify(process.memoryUsage())}\n`);
});
