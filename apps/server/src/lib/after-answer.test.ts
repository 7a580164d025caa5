import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerAfterAnswer } from './after-answer';

/** A bare app whose one route begins `work` after its answer, and what it logged. */
async function appWith(work: () => Promise<void>) {
  const logged: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged.push(String(chunk));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'error', stream } });
  registerAfterAnswer(app);
  app.get('/', async (request) => {
    app.afterAnswer(request, work);
    return { answered: true };
  });
  await app.ready();
  return { app, logged };
}

describe('work begun after the answer', () => {
  it('starts once the answer is sent, not before, and answersSettled waits for it', async () => {
    const steps: string[] = [];
    let finish = () => {};
    const { app } = await appWith(async () => {
      steps.push('work began');
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      steps.push('work ended');
    });
    const res = await app.inject({ method: 'GET', url: '/' });
    steps.push('answer read');
    expect(res.json()).toEqual({ answered: true });
    expect(steps).toEqual(['work began', 'answer read']);
    const settled = app.answersSettled().then(() => steps.push('settled'));
    finish();
    await settled;
    expect(steps).toEqual(['work began', 'answer read', 'work ended', 'settled']);
    await app.close();
  });

  it('logs a failure, and the next request is answered as usual', async () => {
    const { app, logged } = await appWith(() => Promise.reject(new Error('the store is away')));
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    await app.answersSettled();
    expect(logged.join('')).toContain('work after the answer failed');
    expect(logged.join('')).toContain('the store is away');
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    await app.close();
  });

  it('holds the app open until the work has ended', async () => {
    let finish = () => {};
    let ended = false;
    const { app } = await appWith(async () => {
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      ended = true;
    });
    await app.inject({ method: 'GET', url: '/' });
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    finish();
    await closing;
    expect(ended).toBe(true);
  });
});
