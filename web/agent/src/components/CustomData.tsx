/**
 * Custom data fields of one source (the page's setCustomData, or the
 * chat_accepted answer), in their order, under that source's heading: title
 * above the field, key in bold before a colon, content as text, link opened
 * in a new tab. With Safe URL set, links to other domains are hidden.
 */
import { useSession } from '../context';
import { allowedBySafeUrl, isRecord, safeHref, str } from '../format';

export function CustomData({ fields, heading }: { fields: unknown[]; heading: string }) {
  const { safeUrl } = useSession();
  const items = fields.filter(isRecord);
  if (items.length === 0) return null;
  return (
    <section aria-label={heading} className="custom-data">
      <h4>{heading}</h4>
      <ul>
        {items.map((f, i) => {
          const title = str(f.title);
          const key = str(f.key);
          const content = str(f.content);
          const href = safeHref(f.link);
          const link = href && allowedBySafeUrl(href, safeUrl) ? href : null;
          const body = content ?? (link ? link : null);
          return (
            <li key={i}>
              {title && <p className="cd-title">{title}</p>}
              <p className="break">
                {key && <strong>{key}: </strong>}
                {link ? (
                  <a href={link} target="_blank" rel="noopener noreferrer">
                    {body}
                  </a>
                ) : (
                  body
                )}
              </p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
