import { formatOneDecimal } from '@portal/contract';

/** 356 B, 12.4 KB, 3.1 MB (binary units, en-IN digits). */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${formatOneDecimal(value)} ${units[unit]}`;
}
