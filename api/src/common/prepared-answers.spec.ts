import { PreparedAnswers } from './prepared-answers';

describe('PreparedAnswers', () => {
  const text = (s: string) => Buffer.from(s);

  it('keeps an answer by the URL as sent, until it expires', () => {
    let now = 1000;
    const answers = new PreparedAnswers(30_000, 10, () => now);
    answers.remember('/api/products?page=1', text('a'), answers.generation);
    expect(answers.get('/api/products?page=1')?.toString()).toBe('a');
    expect(answers.get('/api/products?page=1&')).toBeUndefined();
    now += 30_000;
    expect(answers.get('/api/products?page=1')).toBeUndefined();
    expect(answers.size).toBe(0);
  });

  it('does not keep an answer computed across a clear', () => {
    const answers = new PreparedAnswers(30_000);
    const generation = answers.generation;
    answers.clear();
    answers.remember('/api/products', text('old'), generation);
    expect(answers.get('/api/products')).toBeUndefined();
    answers.remember('/api/products', text('new'), answers.generation);
    expect(answers.get('/api/products')?.toString()).toBe('new');
    answers.clear();
    expect(answers.get('/api/products')).toBeUndefined();
  });

  it('serves nothing while a look at other instances is due', () => {
    const answers = new PreparedAnswers(30_000);
    let due = true;
    answers.lookBeforeServing(() => (due ? Promise.resolve() : undefined));
    answers.remember('/api/products', text('a'), answers.generation);
    expect(answers.get('/api/products')).toBeUndefined();
    due = false;
    expect(answers.get('/api/products')?.toString()).toBe('a');
  });

  it('holds at most its bound, dropping the oldest', () => {
    const answers = new PreparedAnswers(30_000, 2);
    for (const url of ['/a', '/b', '/c']) answers.remember(url, text(url), answers.generation);
    expect(answers.size).toBe(2);
    expect(answers.get('/a')).toBeUndefined();
    expect(answers.get('/c')?.toString()).toBe('/c');
  });
});
