/**
 * The visitor panel (spec: the agent application's information panel): who
 * the visitor is, what the chat_accepted answer added (contact info where
 * it says more than the visitor's fields: ContactInfo; the bind-to-CRM
 * button, custom data, the CRM link, the CRM's page) and the browser
 * session. The page's custom data (setCustomData) and the answer's
 * are shown apart, each under its own heading; the answer's page never hides
 * the page the visitor is on. The visit (time on site, where the visitor came
 * from, the pages seen: VisitorVisit) and the session (place, device, UTM)
 * follow the visitor live. Only the fields listed here are shown: the user
 * token never is. The photo (sender.photo) shows the visitor's initials while
 * it cannot be loaded (Avatar); the chat's department and the visitor's
 * language are listed. Administrators can erase the visitor (EraseVisitor).
 */
import { useState } from 'react';
import { languageName, useDepartmentName } from '../departments';
import { str, isRecord, safeHref, visitorName } from '../format';
import { formatNumber, t } from '../i18n';
import type { ChatDto } from '../../../../protocol/agent';
import { AssignButton } from './AssignButton';
import { Avatar } from './Avatar';
import { ContactInfo } from './ContactInfo';
import { CustomData } from './CustomData';
import { EarlierChats } from './EarlierChats';
import { EraseVisitor } from './EraseVisitor';
import { Field } from './Field';
import { RatingBadge } from './RatingBadge';
import { VisitorSession } from './VisitorSession';
import { VisitorVisit } from './VisitorVisit';

const atPhoneWidth = (): boolean => window.matchMedia('(max-width: 760px)').matches;

export function VisitorPanel({ chat }: { chat: ChatDto }) {
  const v = chat.visitor;
  const [folded] = useState(atPhoneWidth);
  const contact = isRecord(chat.contact_info) ? chat.contact_info : {};
  // The page the visitor is on now (it follows every page change), then the one an integration's answer named.
  const now = isRecord(v.session.page) ? v.session.page : null;
  const nowUrl = safeHref(now?.url) ?? safeHref(v.url);
  // A chat-channel sender.url that is no http(s) URL ('support.ua mobile'): shown as the text it is, never a link.
  const whereText = !nowUrl && v.url ? v.url : null;
  const page = isRecord(chat.page) ? chat.page : null;
  const pageUrl = safeHref(page?.url);
  const crmPage = isRecord(chat.crm_page) ? chat.crm_page : null;
  const crmPageUrl = safeHref(crmPage?.url);
  // Chats recorded before the two sources were kept apart carry custom_data only.
  const pageData = Array.isArray(chat.page_custom_data) ? chat.page_custom_data : chat.custom_data;
  const crmData = Array.isArray(chat.crm_custom_data) ? chat.crm_custom_data : [];
  const crm = safeHref(chat.crm_link);
  const department = useDepartmentName(chat.department_id);
  return (
    <aside className="visitor-panel" aria-labelledby={`visitor-${chat.id}`}>
      {/* At phone width the panel starts folded, so the conversation has the screen. */}
      <details open={!folded}>
        <summary>
          <h3 id={`visitor-${chat.id}`}>{t('workspace.visitor.title')}</h3>
        </summary>
        {v.photo && <Avatar src={v.photo} name={v.name?.trim() || visitorName(v)} />}
        <dl className="fields">
          <Field label={t('common.name')} value={v.name ?? t('workspace.visitor.anonymous')} />
          <Field label={t('common.email')} value={v.email} />
          <Field label={t('common.phone')} value={v.phone} />
          <Field label={t('workspace.visitor.number')} value={String(v.number)} />
          <Field label={t('workspace.visitor.department')} value={department} />
          <Field label={t('workspace.visitor.language')} value={languageName(v.session)} />
          <Field label={t('workspace.visitor.chats')} value={formatNumber(v.chats_count)} />
          <Field label={t('workspace.visitor.about')} value={v.description} />
          {v.blacklisted && <Field label={t('workspace.visitor.blacklisted')} value={t('workspace.visitor.yes')} />}
          {chat.rate && (
            <>
              <dt>{t('workspace.visitor.thisChat')}</dt>
              <dd>
                <RatingBadge rate={chat.rate} />
              </dd>
            </>
          )}
        </dl>
        <ContactInfo contact={contact} visitor={v} />
        {chat.enable_assign && <AssignButton chat={chat} />}
        <CustomData heading={t('workspace.visitor.fromPage')} fields={pageData} />
        <CustomData heading={t('workspace.visitor.fromCrm')} fields={crmData} />
        {crm && (
          <a className="button crm" href={crm} target="_blank" rel="noopener noreferrer">
            {t('workspace.visitor.openCrm')}
          </a>
        )}
        {crmPageUrl && (
          <section aria-label={t('workspace.visitor.crmPage')}>
            <h4>{t('workspace.visitor.crmPage')}</h4>
            <p className="break">
              <a href={crmPageUrl} target="_blank" rel="noopener noreferrer">
                {str(crmPage?.title) ?? crmPageUrl}
              </a>
            </p>
          </section>
        )}
        {nowUrl && (
          <section aria-label={t('workspace.visitor.currentPage')}>
            <h4>{t('workspace.visitor.currentPage')}</h4>
            <p className="break">
              <a href={nowUrl} target="_blank" rel="noopener noreferrer">
                {str(now?.title) ?? nowUrl}
              </a>
            </p>
          </section>
        )}
        {whereText && (
          <section aria-label={t('workspace.visitor.currentPage')}>
            <h4>{t('workspace.visitor.currentPage')}</h4>
            <p className="break">{whereText}</p>
          </section>
        )}
        {pageUrl && pageUrl !== nowUrl && (
          <section aria-label={t('workspace.visitor.startedOn')}>
            <h4>{t('workspace.visitor.startedOn')}</h4>
            <p className="break">
              <a href={pageUrl} target="_blank" rel="noopener noreferrer">
                {str(page?.title) ?? pageUrl}
              </a>
            </p>
          </section>
        )}
        <VisitorVisit session={v.session} />
        <VisitorSession session={v.session} />
      </details>
      <EarlierChats chat={chat} />
      <EraseVisitor visitorId={v.id} visitorNumber={v.number} />
    </aside>
  );
}
