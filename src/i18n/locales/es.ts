import type { Catalogue } from './en';

/**
 * Spanish catalogue (lazy chunk). Terms from the Spanish lesson (`src/i18n/glossary.ts`):
 * cancelación, tiempo límite, progreso, clave de idempotencia, libro mayor, tarea, nuevo intento,
 * jitter, reconectar; the lesson's garbled renderings (nerviosismo, impotencia) are not used.
 */
export const messages: Catalogue = {
  'shell.skip': 'Ir al laboratorio',
  'shell.brand': 'Laboratorio de fiabilidad MCP',
  'shell.start': 'Empieza aquí',
  'shell.startTitle': 'Empieza aquí: para qué sirve el laboratorio y por dónde empezar',
  'shell.skipTimeline': 'Ir al primer evento de la línea de tiempo',
  'nav.label': 'Laboratorios',
  'nav.soon': 'pronto',
  'nav.soonTitle': '{blurb} — muy pronto',
  'lab.races.name': 'Carreras',
  'lab.races.blurb': 'cancelación, tiempos límite y progreso',
  'lab.ledger.name': 'Libro mayor',
  'lab.ledger.blurb': 'claves de idempotencia en un libro mayor SQLite real',
  'lab.flow.name': 'Flujo',
  'lab.flow.blurb': 'búferes SSE, proxies, reconexiones y jitter',
  'lab.resilience.name': 'Resiliencia',
  'lab.resilience.blurb': 'tareas, nuevos intentos, presupuestos y disyuntores',
  'lab.traffic.name': 'Tráfico',
  'lab.traffic.blurb': 'importe sus propias transcripciones MCP, compruébelas y pruebe variantes',
  'theme.label': 'Tema',
  'theme.auto': 'Automático',
  'theme.light': 'Claro',
  'theme.dark': 'Oscuro',
  'lang.label': 'Idioma',
  'update.available': 'Hay una versión nueva — ',
  'update.reload': 'Recargar',
  'update.later': 'Más tarde',
};
