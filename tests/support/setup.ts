process.env.NEXT_TELEMETRY_DISABLED = '1';
process.env.LOG_LEVEL ??= 'silent';
