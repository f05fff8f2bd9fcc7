import Link from 'next/link';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { cn } from './cn';

export type ButtonVariant = 'primary' | 'accent' | 'outline' | 'ghost' | 'inverse';
export type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-site font-semibold leading-tight whitespace-nowrap transition-colors ' +
  'disabled:pointer-events-none disabled:opacity-60 aria-disabled:pointer-events-none aria-disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-brand text-brand-foreground hover:brightness-110 active:brightness-95',
  accent: 'bg-accent text-accent-foreground hover:brightness-105 active:brightness-95',
  outline: 'border-2 border-current bg-transparent text-brand-text hover:bg-brand hover:text-brand-foreground hover:border-brand',
  ghost: 'bg-transparent text-current hover:bg-black/5',
  inverse: 'bg-white text-gray-900 hover:bg-gray-100',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'min-h-9 px-3 text-sm',
  md: 'min-h-11 px-5 text-base',
  lg: 'min-h-13 px-7 text-lg',
};

/** Class names of a button, for elements that are not a Button (a summary, a label). */
export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string): string {
  return cn(base, variants[variant], sizes[size], className);
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
