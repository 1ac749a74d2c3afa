/** An Open-Meteo stand-in on 127.0.0.1: geocoding (`/v1/search`) and a daily forecast (`/v1/forecast`). */
import { startLocalService, type LocalService } from '../../integrations/localService.js';

export interface WeatherFake {
  service: LocalService;
  geocodingUrl: string;
  forecastUrl: string;
  close(): Promise<void>;
}

export async function startWeather(): Promise<WeatherFake> {
  const service = await startLocalService((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/v1/search') {
      const name = url.searchParams.get('name');
      res.end(
        JSON.stringify(
          name === 'Berlin'
            ? {
                results: [
                  { name: 'Berlin', latitude: 52.52, longitude: 13.41, timezone: 'Europe/Berlin' },
                ],
              }
            : {},
        ),
      );
      return;
    }
    const date = url.searchParams.get('start_date');
    res.end(
      JSON.stringify({
        daily: {
          time: [date],
          weather_code: [61],
          temperature_2m_max: [8.4],
          temperature_2m_min: [2.6],
          precipitation_probability_max: [70],
        },
      }),
    );
  });
  return {
    service,
    geocodingUrl: `${service.origin}/v1/search`,
    forecastUrl: `${service.origin}/v1/forecast`,
    close: () => service.close(),
  };
}
