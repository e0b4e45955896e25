import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { refreshQueries } from './refresh-queries';

describe('refreshQueries', () => {
  it('fetches again when the change lands while the first load is still in flight', async () => {
    const queryClient = new QueryClient();
    let serverState = 'before the change';
    const answers: ((v: string) => void)[] = [];
    const queryFn = jest.fn(
      () =>
        new Promise<string>((resolve) => {
          const seen = serverState;
          answers.push(() => resolve(seen));
        }),
    );
    const observer = new QueryObserver(queryClient, { queryKey: ['categories', 'list'], queryFn });
    const unsubscribe = observer.subscribe(() => undefined);
    expect(queryFn).toHaveBeenCalledTimes(1);

    serverState = 'after the change';
    const refreshed = refreshQueries(queryClient, ['categories']);
    await new Promise((r) => setTimeout(r, 0));
    answers.forEach((answer) => answer(''));
    await refreshed;

    expect(queryFn).toHaveBeenCalledTimes(2);
    expect(queryClient.getQueryData(['categories', 'list'])).toBe('after the change');
    unsubscribe();
  });
});
