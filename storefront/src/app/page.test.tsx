import { act, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { page } from './page';

function controlled() {
  let resolve!: (m: { Screen: () => ReactElement }) => void;
  const load = () => new Promise<{ Screen: () => ReactElement }>((r) => (resolve = r));
  return { load, done: () => resolve({ Screen: () => <h1>The screen</h1> }) };
}

describe('a screen of its own chunk', () => {
  it('shows its shell while its code loads, then the screen in its place', async () => {
    const code = controlled();
    const Screen = page(code.load, 'Screen', undefined, () => <h1>The shell</h1>);
    render(<Screen />);
    expect(screen.getByRole('heading', { name: 'The shell' })).toBeInTheDocument();
    await act(async () => code.done());
    expect(await screen.findByRole('heading', { name: 'The screen' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'The shell' })).not.toBeInTheDocument();
  });

  it('renders at once, without its shell, once its code was loaded before', async () => {
    const code = controlled();
    const Screen = page(code.load, 'Screen', undefined, () => <h1>The shell</h1>);
    const loading = Screen.load();
    code.done();
    await loading;
    render(<Screen />);
    expect(screen.getByRole('heading', { name: 'The screen' })).toBeInTheDocument();
  });
});
