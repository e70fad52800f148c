// The page's entry: its code is set up in two tasks rather than one (together they held the
// main thread too long as the page loaded): the run panels and their D3 modules first, then
// the page itself.
await import('../canvas/panel');
await new Promise((resolve) => setTimeout(resolve, 0));
await import('./main');

export {};
