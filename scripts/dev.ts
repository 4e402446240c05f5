// `npm run dev`: the API in watch mode on DEV_API_PORT and Vite with hot reload in front of it.
import { spawn, type ChildProcess } from 'node:child_process';

const apiPort = process.env.DEV_API_PORT ?? '3001';
const webPort = process.env.PORT ?? '3000';
const children: ChildProcess[] = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: apiPort,
      APP_URL: process.env.APP_URL ?? `http://localhost:${webPort}`,
    },
  }),
  spawn('npx', ['vite', '--port', webPort, '--strictPort'], {
    stdio: 'inherit',
    env: { ...process.env, DEV_API_PORT: apiPort },
  }),
];

const stopAll = () => children.forEach((c) => c.kill('SIGTERM'));
for (const child of children)
  child.on('exit', (code) => {
    stopAll();
    process.exitCode = code ?? 0;
  });
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
