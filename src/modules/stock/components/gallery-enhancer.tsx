'use client';

import { useEffect } from 'react';

/** Horizontal travel (px) that counts as a swipe. */
const SWIPE_PX = 40;

/**
 * Wires the server-rendered CarGallery: arrow buttons (shown only now, so no dead buttons without
 * JavaScript), Left/Right keys, swipes, thumbnails that switch the main photo, and the
 * full-screen dialog (Escape closes it; focus returns to the photo). Renders nothing.
 */
export function GalleryEnhancer({ id }: { id: string }) {
  useEffect(() => {
    const root = document.getElementById(id);
    const main = root?.querySelector<HTMLImageElement>('[data-gallery-main]');
    const dialog = root?.querySelector<HTMLDialogElement>('[data-gallery-dialog]');
    const full = dialog?.querySelector<HTMLImageElement>('[data-gallery-full]');
    if (!root || !main || !dialog || !full) return;
    const thumbs = [...root.querySelectorAll<HTMLAnchorElement>('[data-gallery-thumb]')];
    const counters = root.querySelectorAll<HTMLElement>('[data-gallery-counter]');
    const count = Math.max(thumbs.length, 1);
    const controller = new AbortController();
    const { signal } = controller;
    let index = 0;

    // A new photo is decoded off the main thread, so a swipe paints without waiting for it.
    main.decoding = full.decoding = 'async';
    /** The full-screen photo follows the main one only while its dialog is open (and when it opens). */
    const showIn = (image: HTMLImageElement, thumb: HTMLAnchorElement) => {
      const { src, srcset, alt } = thumb.dataset;
      if (srcset) image.srcset = srcset;
      if (src) image.src = src;
      if (alt) image.alt = alt;
    };
    const show = (next: number) => {
      const previous = thumbs[index];
      index = (next + count) % count;
      const thumb = thumbs[index];
      if (!thumb) return;
      showIn(main, thumb);
      if (dialog.open) showIn(full, thumb);
      previous?.removeAttribute('aria-current');
      thumb.setAttribute('aria-current', 'true');
      counters.forEach((c) => (c.textContent = `${index + 1} / ${count}`));
    };

    root.querySelectorAll<HTMLButtonElement>('[data-gallery-prev], [data-gallery-next]').forEach((button) => {
      button.hidden = false;
      const step = button.hasAttribute('data-gallery-next') ? 1 : -1;
      button.addEventListener('click', () => show(index + step), { signal });
    });
    thumbs.forEach((thumb, i) =>
      thumb.addEventListener(
        'click',
        (event) => {
          event.preventDefault();
          show(i);
        },
        { signal },
      ),
    );
    const opener = root.querySelector<HTMLAnchorElement>('[data-gallery-open]');
    opener?.addEventListener(
      'click',
      (event) => {
        event.preventDefault();
        if (thumbs[index]) showIn(full, thumbs[index]);
        dialog.showModal();
      },
      { signal },
    );
    dialog.querySelector('[data-gallery-close]')?.addEventListener('click', () => dialog.close(), { signal });
    dialog.addEventListener('click', (event) => event.target === event.currentTarget && dialog.close(), { signal });
    dialog.addEventListener('close', () => opener?.focus(), { signal });
    root.addEventListener(
      'keydown',
      (event) => {
        if (count < 2 || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
        event.preventDefault();
        show(index + (event.key === 'ArrowRight' ? 1 : -1));
      },
      { signal },
    );
    let startX: number | null = null;
    root.addEventListener('touchstart', (event) => (startX = event.touches[0]?.clientX ?? null), { signal, passive: true });
    root.addEventListener(
      'touchend',
      (event) => {
        const endX = event.changedTouches[0]?.clientX;
        if (startX == null || endX == null || count < 2) return;
        const travel = endX - startX;
        startX = null;
        if (Math.abs(travel) >= SWIPE_PX) show(index + (travel < 0 ? 1 : -1));
      },
      { signal, passive: true },
    );
    return () => controller.abort();
  }, [id]);
  return null;
}
