import { notifications } from '@mantine/notifications';
import { errorMessage } from './api-client';

export const notifySuccess = (message: string) => notifications.show({ color: 'green', message, autoClose: 4000 });
export const notifyWarning = (message: string) =>
  notifications.show({ color: 'orange', title: 'Saved, with a warning', message, autoClose: 8000 });
export const notifyError = (error: unknown, title = 'Not done') =>
  notifications.show({ color: 'red', title, message: errorMessage(error), autoClose: 8000 });
