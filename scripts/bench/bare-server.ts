// The baseline for bench:api: Fastify with one route and nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ id: 1, username: 'bench' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
