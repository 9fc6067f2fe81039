/** Русский: the shared words. */
import type { Translated } from '../en';
import type { common as en } from '../en/common';

export const common: Translated<typeof en> = {
  'common.save': 'Сохранить',
  'common.saving': 'Сохранение…',
  'common.saved': 'Сохранено',
  'common.cancel': 'Отмена',
  'common.close': 'Закрыть',
  'common.delete': 'Удалить',
  'common.edit': 'Изменить',
  'common.add': 'Добавить',
  'common.remove': 'Убрать',
  'common.loading': 'Загрузка…',
  'common.retry': 'Повторить',
  'common.yes': 'Да',
  'common.no': 'Нет',
  'common.back': 'Назад',
  'common.copy': 'Копировать',
  'common.copied': 'Скопировано',
  'common.name': 'Имя',
  'common.email': 'Эл. почта',
  'common.phone': 'Телефон',
  'common.password': 'Пароль',
  'common.search': 'Поиск',
  'common.none': 'Нет',
  'common.minutes': { one: '{count} минута', few: '{count} минуты', many: '{count} минут', other: '{count} минуты' },
};
