/** One checkbox per item of a list of ids (agents, departments): ticked = in the value. */
import type { ReactNode } from 'react';

export function Checks({
  name,
  items,
  value,
  onChange,
}: {
  name: string;
  items: Array<{ id: number; label: ReactNode }>;
  value: number[];
  onChange: (ids: number[]) => void;
}) {
  return items.map((item) => (
    <label key={item.id} className="check">
      <input
        type="checkbox"
        name={name}
        value={item.id}
        checked={value.includes(item.id)}
        onChange={(e) => onChange(e.target.checked ? [...value, item.id] : value.filter((id) => id !== item.id))}
      />
      {item.label}
    </label>
  ));
}

/** An agent as the lists of agents show one: the name, then the e-mail. */
export function agentItem(a: { id: number; name: string; email: string }) {
  return {
    id: a.id,
    label: (
      <>
        {a.name} <span className="muted small">({a.email})</span>
      </>
    ),
  };
}
