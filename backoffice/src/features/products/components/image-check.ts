// The image check lives in lib/ (the shop pictures screen uses it too).
export * from '../../../lib/image-check';
