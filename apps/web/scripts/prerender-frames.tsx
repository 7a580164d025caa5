/**
 * The first HTML's frames, rendered at build time from the real components, so that a first
 * visit paints the sign-in screen or the signed-in shell before any JavaScript has run, and
 * React's first render draws the same boxes over them (no layout shift).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { AppLayout } from '../src/app/layout/app-layout';
import { Component as Login } from '../src/app/routes/login';

const render = (path: string, screen: ReactNode) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>{screen}</MemoryRouter>
    </QueryClientProvider>,
  );

export const renderFrames = () => ({
  login: render('/login', <Login />),
  // the screen inside comes with its route's code; the shell (header, sidebar) does not wait
  shell: render('/dashboard', <AppLayout />),
});
