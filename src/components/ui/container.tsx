import type { ComponentPropsWithoutRef, ElementType } from 'react';
import { cn } from './cn';

type ContainerProps<T extends ElementType> = { as?: T; size?: 'default' | 'narrow' } & ComponentPropsWithoutRef<T>;

/** The page column: centred, with gutters that grow with the SPEC §9 breakpoints. */
export function Container<T extends ElementType = 'div'>({ as, size = 'default', className, ...props }: ContainerProps<T>) {
  const Component = as ?? 'div';
  return (
    <Component
      className={cn(
        'mx-auto w-full px-4 sm:px-6 lg:px-8',
        size === 'narrow' ? 'max-w-3xl' : 'max-w-7xl',
        className,
      )}
      {...props}
    />
  );
}
