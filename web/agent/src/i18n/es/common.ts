/** Español: the shared words. */
import type { Translated } from '../en';
import type { common as en } from '../en/common';

export const common: Translated<typeof en> = {
  'common.save': 'Guardar',
  'common.saving': 'Guardando…',
  'common.saved': 'Guardado',
  'common.cancel': 'Cancelar',
  'common.close': 'Cerrar',
  'common.delete': 'Eliminar',
  'common.edit': 'Editar',
  'common.add': 'Añadir',
  'common.remove': 'Quitar',
  'common.loading': 'Cargando…',
  'common.retry': 'Reintentar',
  'common.yes': 'Sí',
  'common.no': 'No',
  'common.back': 'Atrás',
  'common.copy': 'Copiar',
  'common.copied': 'Copiado',
  'common.name': 'Nombre',
  'common.email': 'Correo electrónico',
  'common.phone': 'Teléfono',
  'common.password': 'Contraseña',
  'common.search': 'Buscar',
  'common.none': 'Ninguno',
  'common.minutes': { one: '{count} minuto', many: '{count} de minutos', other: '{count} minutos' },
};
