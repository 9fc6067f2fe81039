/** العربية: the shared words. */
import type { Translated } from '../en';
import type { common as en } from '../en/common';

export const common: Translated<typeof en> = {
  'common.save': 'حفظ',
  'common.saving': 'جارٍ الحفظ…',
  'common.saved': 'تم الحفظ',
  'common.cancel': 'إلغاء',
  'common.close': 'إغلاق',
  'common.delete': 'حذف',
  'common.edit': 'تعديل',
  'common.add': 'إضافة',
  'common.remove': 'إزالة',
  'common.loading': 'جارٍ التحميل…',
  'common.retry': 'إعادة المحاولة',
  'common.yes': 'نعم',
  'common.no': 'لا',
  'common.back': 'رجوع',
  'common.copy': 'نسخ',
  'common.copied': 'تم النسخ',
  'common.name': 'الاسم',
  'common.email': 'البريد الإلكتروني',
  'common.phone': 'الهاتف',
  'common.password': 'كلمة المرور',
  'common.search': 'بحث',
  'common.none': 'لا شيء',
  'common.minutes': { zero: '{count} دقيقة', one: 'دقيقة واحدة', two: 'دقيقتان', few: '{count} دقائق', many: '{count} دقيقة', other: '{count} دقيقة' },
};
