import { actionLink } from '../dom';

/**
 * A workspace path as a link that opens it. In a narrow sidebar it stays on one line, cut with an ellipsis (CSS);
 * the full path is the tooltip.
 */
export function pathLink(label: string, open: () => void): HTMLElement {
  return actionLink(label, label, open, { class: 'path-link' });
}
