/** Português: the shared words. */
import type { Translated } from '../en';
import type { common as en } from '../en/common';

export const common: Translated<typeof en> = {
  'common.save': 'Salvar',
  'common.saving': 'Salvando…',
  'common.saved': 'Salvo',
  'common.cancel': 'Cancelar',
  'common.close': 'Fechar',
  'common.delete': 'Excluir',
  'common.edit': 'Editar',
  'common.add': 'Adicionar',
  'common.remove': 'Remover',
  'common.loading': 'Carregando…',
  'common.retry': 'Tentar novamente',
  'common.yes': 'Sim',
  'common.no': 'Não',
  'common.back': 'Voltar',
  'common.copy': 'Copiar',
  'common.copied': 'Copiado',
  'common.name': 'Nome',
  'common.email': 'E-mail',
  'common.phone': 'Telefone',
  'common.password': 'Senha',
  'common.search': 'Pesquisar',
  'common.none': 'Nenhum',
  'common.minutes': { one: '{count} minuto', many: '{count} de minutos', other: '{count} minutos' },
};
