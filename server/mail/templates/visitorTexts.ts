/**
 * What the mails and the page of "E-mail me this conversation" say to the
 * visitor, in each language of the widget (protocol/widget.ts
 * WIDGET_LANGUAGES): the frame passes its language with the request, and the
 * confirmation mail, the page the link opens and the transcript mail are
 * written in it. `{name}` placeholders are filled by `fill`.
 */
import { WIDGET_LANGUAGES, type WidgetLanguage } from '../../../protocol/widget.js';

export interface VisitorTexts {
  confirmSubject: string;
  confirmIntro: string;
  confirmButton: string;
  confirmNote: string;
  transcriptSubject: string;
  transcriptIntro: string;
  you: string;
  pageTitle: string;
  pageAsk: string;
  pageButton: string;
  pageSent: string;
  pageInvalid: string;
  pageExpired: string;
}

const en: VisitorTexts = {
  confirmSubject: 'Confirm your e-mail address to receive your conversation with {account}',
  confirmIntro:
    'You asked for a copy of your conversation with {account} to be sent to this address. Open the link to confirm that the address is yours; the conversation is then sent here.',
  confirmButton: 'Confirm and send the conversation',
  confirmNote: 'The link works once, for 24 hours. If you did not ask for this, ignore this mail: nothing will be sent.',
  transcriptSubject: 'Your conversation with {account}',
  transcriptIntro: 'Started {time}. You asked for this copy of the conversation.',
  you: 'You',
  pageTitle: 'Your conversation with {account}',
  pageAsk: 'Send the conversation to {email}?',
  pageButton: 'Send the conversation',
  pageSent: 'The conversation is on its way to {email}. You can close this page.',
  pageInvalid: 'This link is not valid or was already used. Ask for the conversation again in the chat.',
  pageExpired: 'This link has expired. Ask for the conversation again in the chat.',
};

const TEXTS: Record<WidgetLanguage, VisitorTexts> = {
  en,
  ru: {
    confirmSubject: 'Подтвердите адрес, чтобы получить переписку с {account}',
    confirmIntro:
      'Вы попросили отправить копию переписки с {account} на этот адрес. Откройте ссылку, чтобы подтвердить, что адрес ваш; после этого переписка придёт сюда.',
    confirmButton: 'Подтвердить и отправить переписку',
    confirmNote: 'Ссылка действует один раз в течение 24 часов. Если вы об этом не просили, просто удалите письмо: ничего отправлено не будет.',
    transcriptSubject: 'Ваша переписка с {account}',
    transcriptIntro: 'Начало: {time}. Вы попросили прислать копию этой переписки.',
    you: 'Вы',
    pageTitle: 'Ваша переписка с {account}',
    pageAsk: 'Отправить переписку на {email}?',
    pageButton: 'Отправить переписку',
    pageSent: 'Переписка отправлена на {email}. Эту страницу можно закрыть.',
    pageInvalid: 'Ссылка недействительна или уже использована. Запросите переписку ещё раз в чате.',
    pageExpired: 'Срок действия ссылки истёк. Запросите переписку ещё раз в чате.',
  },
  es: {
    confirmSubject: 'Confirma tu dirección para recibir tu conversación con {account}',
    confirmIntro:
      'Pediste que se enviara a esta dirección una copia de tu conversación con {account}. Abre el enlace para confirmar que la dirección es tuya; después se enviará la conversación aquí.',
    confirmButton: 'Confirmar y enviar la conversación',
    confirmNote: 'El enlace funciona una vez, durante 24 horas. Si no lo pediste, ignora este correo: no se enviará nada.',
    transcriptSubject: 'Tu conversación con {account}',
    transcriptIntro: 'Iniciada el {time}. Pediste esta copia de la conversación.',
    you: 'Tú',
    pageTitle: 'Tu conversación con {account}',
    pageAsk: '¿Enviar la conversación a {email}?',
    pageButton: 'Enviar la conversación',
    pageSent: 'La conversación va de camino a {email}. Puedes cerrar esta página.',
    pageInvalid: 'Este enlace no es válido o ya se usó. Vuelve a pedir la conversación en el chat.',
    pageExpired: 'Este enlace ha caducado. Vuelve a pedir la conversación en el chat.',
  },
  de: {
    confirmSubject: 'Bestätigen Sie Ihre Adresse, um Ihr Gespräch mit {account} zu erhalten',
    confirmIntro:
      'Sie haben gebeten, eine Kopie Ihres Gesprächs mit {account} an diese Adresse zu senden. Öffnen Sie den Link, um zu bestätigen, dass die Adresse Ihnen gehört; danach wird das Gespräch hierher gesendet.',
    confirmButton: 'Bestätigen und Gespräch senden',
    confirmNote: 'Der Link funktioniert einmal, 24 Stunden lang. Wenn Sie das nicht angefordert haben, ignorieren Sie diese Mail: Es wird nichts gesendet.',
    transcriptSubject: 'Ihr Gespräch mit {account}',
    transcriptIntro: 'Begonnen am {time}. Sie haben diese Kopie des Gesprächs angefordert.',
    you: 'Sie',
    pageTitle: 'Ihr Gespräch mit {account}',
    pageAsk: 'Das Gespräch an {email} senden?',
    pageButton: 'Gespräch senden',
    pageSent: 'Das Gespräch ist unterwegs an {email}. Sie können diese Seite schließen.',
    pageInvalid: 'Dieser Link ist ungültig oder wurde schon benutzt. Fordern Sie das Gespräch im Chat erneut an.',
    pageExpired: 'Dieser Link ist abgelaufen. Fordern Sie das Gespräch im Chat erneut an.',
  },
  fr: {
    confirmSubject: 'Confirmez votre adresse pour recevoir votre conversation avec {account}',
    confirmIntro:
      'Vous avez demandé l’envoi d’une copie de votre conversation avec {account} à cette adresse. Ouvrez le lien pour confirmer que l’adresse est la vôtre ; la conversation sera ensuite envoyée ici.',
    confirmButton: 'Confirmer et envoyer la conversation',
    confirmNote: 'Le lien fonctionne une fois, pendant 24 heures. Si vous n’avez rien demandé, ignorez ce message : rien ne sera envoyé.',
    transcriptSubject: 'Votre conversation avec {account}',
    transcriptIntro: 'Commencée le {time}. Vous avez demandé cette copie de la conversation.',
    you: 'Vous',
    pageTitle: 'Votre conversation avec {account}',
    pageAsk: 'Envoyer la conversation à {email} ?',
    pageButton: 'Envoyer la conversation',
    pageSent: 'La conversation est en route vers {email}. Vous pouvez fermer cette page.',
    pageInvalid: 'Ce lien n’est pas valide ou a déjà servi. Redemandez la conversation dans le chat.',
    pageExpired: 'Ce lien a expiré. Redemandez la conversation dans le chat.',
  },
  pt: {
    confirmSubject: 'Confirme o seu endereço para receber a sua conversa com {account}',
    confirmIntro:
      'Pediu que uma cópia da sua conversa com {account} fosse enviada para este endereço. Abra o link para confirmar que o endereço é seu; depois a conversa será enviada para aqui.',
    confirmButton: 'Confirmar e enviar a conversa',
    confirmNote: 'O link funciona uma vez, durante 24 horas. Se não pediu isto, ignore este e-mail: nada será enviado.',
    transcriptSubject: 'A sua conversa com {account}',
    transcriptIntro: 'Iniciada em {time}. Pediu esta cópia da conversa.',
    you: 'Você',
    pageTitle: 'A sua conversa com {account}',
    pageAsk: 'Enviar a conversa para {email}?',
    pageButton: 'Enviar a conversa',
    pageSent: 'A conversa está a caminho de {email}. Pode fechar esta página.',
    pageInvalid: 'Este link não é válido ou já foi usado. Peça a conversa outra vez no chat.',
    pageExpired: 'Este link expirou. Peça a conversa outra vez no chat.',
  },
  tr: {
    confirmSubject: '{account} ile yazışmanızı almak için adresinizi onaylayın',
    confirmIntro:
      '{account} ile yazışmanızın bir kopyasının bu adrese gönderilmesini istediniz. Adresin size ait olduğunu onaylamak için bağlantıyı açın; yazışma ardından buraya gönderilir.',
    confirmButton: 'Onayla ve yazışmayı gönder',
    confirmNote: 'Bağlantı 24 saat içinde bir kez çalışır. Bunu siz istemediyseniz bu e-postayı yok sayın: hiçbir şey gönderilmez.',
    transcriptSubject: '{account} ile yazışmanız',
    transcriptIntro: 'Başlangıç: {time}. Yazışmanın bu kopyasını siz istediniz.',
    you: 'Siz',
    pageTitle: '{account} ile yazışmanız',
    pageAsk: 'Yazışma {email} adresine gönderilsin mi?',
    pageButton: 'Yazışmayı gönder',
    pageSent: 'Yazışma {email} adresine gönderiliyor. Bu sayfayı kapatabilirsiniz.',
    pageInvalid: 'Bu bağlantı geçersiz veya zaten kullanıldı. Yazışmayı sohbetten yeniden isteyin.',
    pageExpired: 'Bu bağlantının süresi doldu. Yazışmayı sohbetten yeniden isteyin.',
  },
  uk: {
    confirmSubject: 'Підтвердьте адресу, щоб отримати листування з {account}',
    confirmIntro:
      'Ви попросили надіслати копію листування з {account} на цю адресу. Відкрийте посилання, щоб підтвердити, що адреса ваша; після цього листування надійде сюди.',
    confirmButton: 'Підтвердити й надіслати листування',
    confirmNote: 'Посилання діє один раз протягом 24 годин. Якщо ви про це не просили, просто ігноруйте лист: нічого не буде надіслано.',
    transcriptSubject: 'Ваше листування з {account}',
    transcriptIntro: 'Початок: {time}. Ви попросили надіслати копію цього листування.',
    you: 'Ви',
    pageTitle: 'Ваше листування з {account}',
    pageAsk: 'Надіслати листування на {email}?',
    pageButton: 'Надіслати листування',
    pageSent: 'Листування надіслано на {email}. Цю сторінку можна закрити.',
    pageInvalid: 'Посилання недійсне або вже використане. Попросіть листування ще раз у чаті.',
    pageExpired: 'Термін дії посилання минув. Попросіть листування ще раз у чаті.',
  },
  ar: {
    confirmSubject: 'أكّد عنوان بريدك لتستلم محادثتك مع {account}',
    confirmIntro: 'طلبت إرسال نسخة من محادثتك مع {account} إلى هذا العنوان. افتح الرابط لتأكيد أن العنوان لك؛ وبعدها تُرسل المحادثة إلى هنا.',
    confirmButton: 'أكّد وأرسل المحادثة',
    confirmNote: 'يعمل الرابط مرة واحدة خلال 24 ساعة. إن لم تطلب ذلك فتجاهل هذه الرسالة: لن يُرسل شيء.',
    transcriptSubject: 'محادثتك مع {account}',
    transcriptIntro: 'بدأت في {time}. طلبت هذه النسخة من المحادثة.',
    you: 'أنت',
    pageTitle: 'محادثتك مع {account}',
    pageAsk: 'إرسال المحادثة إلى {email}؟',
    pageButton: 'أرسل المحادثة',
    pageSent: 'المحادثة في طريقها إلى {email}. يمكنك إغلاق هذه الصفحة.',
    pageInvalid: 'هذا الرابط غير صالح أو استُخدم من قبل. اطلب المحادثة مرة أخرى في الدردشة.',
    pageExpired: 'انتهت صلاحية هذا الرابط. اطلب المحادثة مرة أخرى في الدردشة.',
  },
};

/** A widget language from a request (`lang`), English for anything else. */
export function visitorLanguage(raw: unknown): WidgetLanguage {
  return WIDGET_LANGUAGES.find((l) => l === raw) ?? 'en';
}

export function visitorTexts(lang: string): VisitorTexts {
  return TEXTS[visitorLanguage(lang)];
}

/** `text` with each `{name}` replaced by its value. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}
