/** One label/value row of a definition list; nothing when the value is empty. The value is isolated (<bdi>): a name in Arabic keeps its own direction. */
export function Field({ label, value }: { label: string; value: string | null | undefined }) {
  if (value === null || value === undefined || value === '') return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <bdi>{value}</bdi>
      </dd>
    </>
  );
}
