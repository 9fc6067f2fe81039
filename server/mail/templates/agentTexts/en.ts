/**
 * English, the source of the texts the server writes to agents: the mails to
 * an agent's address and to the account's notification addresses
 * (accounts.ts, notifications.ts, transcript.ts, system.ts), the footer every
 * mail ends with (compose.ts), and the Web Push notifications (server/push/).
 * Every other language has the same keys (AgentTexts makes a missing one a
 * compile error; catalogue.test.ts checks the `{name}` values). These texts
 * are what the tests assert: change one only on purpose.
 */
export const en = {
  // The footer of every mail (compose.ts); {link}: the settings link of footerNotificationHtml.
  footerSent: 'Sent by Parley for {account}.',
  footerNotification: 'Sent by Parley for {account}. You get this mail because your address is a notification address of this account; change it here: {url}',
  footerNotificationHtml: 'Sent by Parley for {account}. You get this mail because your address is a notification address of this account; {link}.',
  footerSettingsLink: 'change the notification settings',
  noMessages: '(no messages)',

  // Who a mail or a notification is about.
  visitorNumbered: 'Visitor {number}',
  /** A visitor with no name or number, at the start of a sentence. */
  someVisitor: 'A visitor',
  agent: 'Agent',
  privateNote: '{who} (private note)',

  // Rows of details.
  labelName: 'Name',
  labelEmail: 'E-mail',
  labelPhone: 'Phone',
  labelAbout: 'About',
  labelChannel: 'Channel',
  labelReceived: 'Received',
  labelVisitor: 'Visitor',
  labelPage: 'Page',
  labelRequested: 'Requested',
  labelStarted: 'Started',
  labelFinished: 'Finished',
  labelRating: 'Rating',
  labelContactName: 'Contact name',
  labelContactEmail: 'Contact e-mail',
  labelContactPhone: 'Contact phone',
  labelContactDescription: 'Contact description',
  labelDirectory: 'Directory',

  // accounts.ts: to one person.
  hello: 'Hello {name},',
  invitationSubject: 'You are invited to answer chats for {account}',
  invitationIntro: '{by} invited you to answer chats for {account} on Parley. Your sign-in name is {email}.',
  invitationIntroNoName: 'An administrator invited you to answer chats for {account} on Parley. Your sign-in name is {email}.',
  invitationLink: 'Choose your password with this link. It works once, until {time}.',
  invitationButton: 'Choose my password',
  invitationIgnore: 'If you did not expect this invitation, ignore this mail: nothing happens until the link is used.',
  resetSubject: 'Reset your {account} password',
  resetForced: '{by}, an administrator of {account}, asked you to choose a new password for {email}. Your old password no longer works.',
  resetAsked: 'Someone (hopefully you) asked to reset the password of {email} on Parley.',
  resetLink: 'Choose a new password with this link. It works once, until {time}.',
  resetButton: 'Choose a new password',
  resetIgnore: 'If you did not ask for this, ignore this mail: your password stays as it is.',
  emailChangeSubject: 'Confirm your new e-mail address for {account}',
  emailChangeIntro:
    'You asked to use {newEmail} as your e-mail address for {account} on Parley, in place of {email}. It becomes your sign-in name and the address Parley writes to once you open this link (until {time}).',
  emailChangeButton: 'Use this address',
  emailChangeIgnore: 'If you did not ask for this, ignore this mail: the address stays {email}.',

  // notifications.ts.
  offlineSubject: 'Offline message from {who}',
  offlineSubjectAnonymous: 'Offline message from a visitor',
  offlineHeading: 'New offline message from {who}',
  offlineHeadingAnonymous: 'New offline message from a visitor',
  offlineReply: 'Reply to this mail to answer {email} directly.',
  offlineButton: 'Open the offline messages',
  callbackSubject: 'Callback request: {phone}',
  callbackHeading: '{who} asks to be called back',
  callbackButton: 'Open the call',

  // transcript.ts: the archive copy and the missed chat.
  archiveSubject: 'Chat #{id} with {who}',
  archiveSubjectAnonymous: 'Chat #{id} with a visitor',
  openChat: 'Open the chat',
  answerChat: 'Answer the chat',
  /** {minutes}: "5 minutes", counted in the language (plural.ts); {n}: the bare number. */
  missedSubjectWaiting: 'Missed chat: {who} waited {n} min',
  missedSubjectFinished: "Missed chat: {who}'s chat was finished unanswered",
  missedHeadingWaiting: '{who} has waited {minutes} for an answer',
  missedHeadingFinished: "{who}'s chat was finished after {minutes} without an answer from an agent",

  // system.ts: to the administrators.
  backupSubject: 'Parley: the scheduled backup failed',
  backupHeading: 'The scheduled backup failed',
  backupAdvice:
    'Until a backup succeeds, the last good one is older than planned. Fix the cause (disk space, permissions, pg_dump on PATH) and run npm run backup -- <file> to take one now; the next scheduled one runs at its time.',
  backupButton: 'Open Admin → System',

  // Web Push notifications (server/push/subscriber.ts).
  pushNewChatTitle: 'New chat: {name}',
  pushNewChatBody: 'A visitor is waiting.',
  pushOfferedTitle: 'A chat is offered to you: {name}',
  pushOfferedBody: 'Accept it within {seconds} s.',
  pushMessageFile: 'Sent a file: {file}',
  pushMessageOther: 'Sent a message.',
  pushTransferTitle: 'Chat transferred to you',
  pushCallbackTitle: 'Callback request',
  pushCallbackBody: '{name} asks to be called back.',
  pushOfflineTitle: 'Offline message: {name}',
  pushOfflineTitleAnonymous: 'Offline message: a visitor',
};

/** Every language's texts: the same keys as English. */
export type AgentTexts = Record<keyof typeof en, string>;
