/** Türkçe: the shared words. */
import type { Translated } from '../en';
import type { common as en } from '../en/common';

export const common: Translated<typeof en> = {
  'common.save': 'Kaydet',
  'common.saving': 'Kaydediliyor…',
  'common.saved': 'Kaydedildi',
  'common.cancel': 'İptal',
  'common.close': 'Kapat',
  'common.delete': 'Sil',
  'common.edit': 'Düzenle',
  'common.add': 'Ekle',
  'common.remove': 'Kaldır',
  'common.loading': 'Yükleniyor…',
  'common.retry': 'Tekrar dene',
  'common.yes': 'Evet',
  'common.no': 'Hayır',
  'common.back': 'Geri',
  'common.copy': 'Kopyala',
  'common.copied': 'Kopyalandı',
  'common.name': 'Ad',
  'common.email': 'E-posta',
  'common.phone': 'Telefon',
  'common.password': 'Parola',
  'common.search': 'Ara',
  'common.none': 'Yok',
  'common.minutes': { one: '{count} dakika', other: '{count} dakika' },
};
