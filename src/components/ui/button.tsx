import Link from 'next/link';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { cn } from './cn';

export type ButtonVariant = 'primary' | 'accent' | 'outline' | 'ghost' | 'inverse';
export type ButtonSize = 'sm' | 'md' | 'lg';

/**
 * Class names of a button, for elements that are not a Button (a summary, a label): the btn classes
 * of globals.css, one per part, since a page repeats them (in its HTML and its RSC payload). Utility
 * classes in `className` override them (components come before utilities in the stylesheet).
 */
export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string): string {
  return cn('btn', `btn-${variant}`, `btn-${size}`, className);
}

type ButtonProps = ComponentPropsWithoutRef<'button'> & { variant?: ButtonVariant; size?: ButtonSize };

export function Button({ variant, size, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...props} />;
}

type LinkButtonProps = Omit<ComponentPropsWithoutRef<'a'>, 'href'> & {
  href: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  children: ReactNode;
};

/**
 * A link that looks like a button. Paths on this site go through next/link; anything else
 * (tel:, mailto:, another site) is a plain anchor.
 */
export function LinkButton({ href, variant, size, className, ...props }: LinkButtonProps) {
  const classes = buttonClasses(variant, size, className);
  if (href.startsWith('/') && !href.startsWith('//')) {
    return <Link href={href} prefetch={false} className={classes} {...props} />;
  }
  return <a href={href} className={classes} {...props} />;
}
