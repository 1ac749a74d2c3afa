/**
 * Request structs and response schemas of the lookups: weather, web search, page text
 * (docs/egress.md).
 */
import { S, type Infer, type JsonSchema } from '../../door/schema.js';
import { NUM_RESULTS, SEARCH_SNIPPET_MAX } from '../../integrations/webSearch.js';

export const WeatherQuery = S.object({
  location: S.string({
    min: 1,
    max: 200,
    description:
      'A place name ("Lisbon", "Porto, Portugal") or `lat,lon` in decimal degrees ("38.72,-9.14")',
  }),
  date: S.optional(S.date()),
  time: S.optional(S.time()),
});
export type WeatherQuery = Infer<typeof WeatherQuery>;

export const WebSearchQuery = S.object({
  query: S.string({ min: 1, max: 500, description: 'What to search for' }),
  numResults: S.optional(
    S.integer(NUM_RESULTS.min, NUM_RESULTS.max, {
      default: NUM_RESULTS.default,
      description: 'How many results',
    }),
  ),
});
export type WebSearchQuery = Infer<typeof WebSearchQuery>;

export const WebPageQuery = S.object({
  url: S.string({ min: 1, max: 2048, format: 'uri', description: 'A public http or https URL' }),
});
export type WebPageQuery = Infer<typeof WebPageQuery>;

const num = (description: string): JsonSchema => ({ type: ['number', 'null'], description });

export const WEATHER_RESPONSE: JsonSchema = {
  type: 'object',
  required: [
    'ok',
    'location',
    'date',
    'summary',
    'weatherCode',
    'temperatureC',
    'temperatureMinC',
    'temperatureMaxC',
    'precipitationProbability',
    'precipitationMm',
    'windKph',
  ],
  properties: {
    ok: { const: true },
    location: {
      type: 'object',
      required: ['name', 'latitude', 'longitude', 'timezone'],
      properties: {
        name: {
          type: 'string',
          description: 'The place the geocoder found, or the `lat,lon` asked for',
        },
        latitude: { type: 'number' },
        longitude: { type: 'number' },
        timezone: {
          type: 'string',
          description: 'IANA time zone of the place: dates and hours are local to it',
        },
        country: { type: 'string' },
      },
    },
    date: {
      type: 'string',
      format: 'date',
      description: "The day the values are for, in the place's time zone",
    },
    time: {
      type: 'string',
      description: 'The hour the values are for (HH:00), when `time` was asked',
    },
    summary: { type: 'string', description: 'The WMO weather code in words ("Partly cloudy")' },
    weatherCode: {
      type: ['integer', 'null'],
      description: 'WMO weather interpretation code (extension)',
    },
    temperatureC: num("At the hour asked; without `time`, the day's mean"),
    temperatureMinC: num("The day's minimum"),
    temperatureMaxC: num("The day's maximum"),
    precipitationProbability: num("Percent: at the hour, or the day's maximum"),
    precipitationMm: num("At the hour, or the day's sum"),
    windKph: num("Wind speed at 10 m, km/h: at the hour, or the day's maximum"),
  },
  examples: [
    {
      ok: true,
      location: {
        name: 'Lisbon',
        latitude: 38.71667,
        longitude: -9.13333,
        timezone: 'Europe/Lisbon',
        country: 'Portugal',
      },
      date: '2026-11-23',
      time: '15:00',
      summary: 'Slight rain',
      weatherCode: 61,
      temperatureC: 16.4,
      temperatureMinC: 12.1,
      temperatureMaxC: 17.3,
      precipitationProbability: 70,
      precipitationMm: 0.6,
      windKph: 18.7,
    },
  ],
};

export const WEB_SEARCH_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'query', 'results'],
  properties: {
    ok: { const: true },
    query: { type: 'string' },
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['title', 'url', 'snippet'],
        properties: {
          title: { type: 'string' },
          url: { type: 'string', format: 'uri' },
          snippet: {
            type: 'string',
            maxLength: SEARCH_SNIPPET_MAX,
            description: "The search engine's excerpt (may be empty)",
          },
        },
      },
    },
  },
  examples: [
    {
      ok: true,
      query: 'pancake recipe',
      results: [
        {
          title: 'Fluffy pancakes',
          url: 'https://recipes.example/pancakes',
          snippet: 'Whisk the flour, milk and eggs…',
        },
      ],
    },
  ],
};

export const WEB_PAGE_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'url', 'title', 'text', 'truncated', 'contentType'],
  properties: {
    ok: { const: true },
    url: {
      type: 'string',
      format: 'uri',
      description: 'Where the text came from, after redirects',
    },
    title: { type: 'string', description: "The article's or page's title; empty for plain text" },
    text: {
      type: 'string',
      description: 'The readable text: paragraphs separated by a blank line',
    },
    truncated: {
      type: 'boolean',
      description: 'True when the text was cut at the cap (extension)',
    },
    contentType: {
      type: 'string',
      enum: ['text/html', 'text/plain'],
      description: 'What the page was (extension)',
    },
  },
  examples: [
    {
      ok: true,
      url: 'https://recipes.example/pancakes',
      title: 'Fluffy pancakes',
      text: 'Whisk the flour, milk and eggs.\n\nRest the batter for ten minutes.',
      truncated: false,
      contentType: 'text/html',
    },
  ],
};
