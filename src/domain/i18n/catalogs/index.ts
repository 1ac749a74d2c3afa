/** Every shipped catalog, by language (docs/i18n.md says how to add one). */
import type { ShippedLanguage } from '../locale.js';
import { AR } from './ar.js';
import { DE } from './de.js';
import { EN, type Catalog } from './en.js';
import { ES } from './es.js';
import { FR } from './fr.js';
import { NL } from './nl.js';
import { PT_BR } from './pt-BR.js';

export const CATALOGS: { readonly [L in ShippedLanguage]: Catalog } = {
  en: EN,
  de: DE,
  fr: FR,
  es: ES,
  nl: NL,
  'pt-BR': PT_BR,
  ar: AR,
};
