import { useEffect, useRef } from 'react';

interface Props {
  /** Builds the chart (an Observable Plot figure or SVG); called again when `deps` change. */
  build: () => SVGSVGElement | HTMLElement;
  deps: readonly unknown[];
  label: string;
  className?: string;
  testId?: string;
}

/** Mounts an Observable Plot chart in a React tree and removes it on change or unmount. */
export function PlotFigure({ build, deps, label, className, testId }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = build();
    ref.current?.append(el);
    return () => el.remove();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller names the chart's inputs in `deps`; `build` is a new closure each render
  }, deps);
  return <figure ref={ref} className={className ? `chart ${className}` : 'chart'} aria-label={label} data-testid={testId} />;
}
