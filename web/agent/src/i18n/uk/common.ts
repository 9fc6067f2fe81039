/** Українська: the shared words. */
import type { Translated } from '../en';
import type { common as en } from '../en/common';

export const common: Translated<typeof en> = {
  'common.save': 'Зберегти',
  'common.saving': 'Збереження…',
  'common.saved': 'Збережено',
  'common.cancel': 'Скасувати',
  'common.close': 'Закрити',
  'common.delete': 'Видалити',
  'common.edit': 'Змінити',
  'common.add': 'Додати',
  'common.remove': 'Прибрати',
  'common.loading': 'Завантаження…',
  'common.retry': 'Повторити',
  'common.yes': 'Так',
  'common.no': 'Ні',
  'common.back': 'Назад',
  'common.copy': 'Копіювати',
  'common.copied': 'Скопійовано',
  'common.name': 'Ім’я',
  'common.email': 'Ел. пошта',
  'common.phone': 'Телефон',
  'common.password': 'Пароль',
  'common.search': 'Пошук',
  'common.none': 'Немає',
  'common.minutes': { one: '{count} хвилина', few: '{count} хвилини', many: '{count} хвилин', other: '{count} хвилини' },
};
