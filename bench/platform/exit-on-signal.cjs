// Preloaded (`node -r`) into a process profiled with --cpu-prof by bench:serving: SIGUSR2 exits
// it normally, so the profile is written (a process ended by SIGTERM writes none).
process.on('SIGUSR2', () => process.exit(0));
