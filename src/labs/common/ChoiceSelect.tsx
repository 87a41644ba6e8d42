import type { SelectHTMLAttributes } from 'react';

/**
 * A `<select>` over a fixed list of choices: one option per entry of `choices`, in that order,
 * showing `labels[choice]`; `onChange` receives the chosen key. Other props (`id`, `data-testid`,
 * `aria-*`) pass to the select.
 */
export function ChoiceSelect<K extends string>({
  choices,
  labels,
  value,
  onChange,
  ...rest
}: { choices: readonly K[]; labels: Readonly<Record<NoInfer<K>, string>>; value: NoInfer<K>; onChange(choice: NoInfer<K>): void } & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'>) {
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.currentTarget.value as K)}>
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {labels[choice]}
        </option>
      ))}
    </select>
  );
}
