import { makeGreeter } from './greeter';

export interface Banner {
  title: string;
  width: number;
}

export function formatBanner(banner: Banner): string {
  const line = '='.repeat(banner.width);
  return `${line}\n${makeGreeter().greet(banner.title)}\n${line}`;
}
